// SQL files are imported as text (`with { type: "text" }`) so they ship inside the compiled binary.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.txt" {
  const text: string;
  export default text;
}
// Bun's precompiled bytecode of a bundle (build.ts), embedded as a file.
declare module "*.jsc" {
  const path: string;
  export default path;
}
