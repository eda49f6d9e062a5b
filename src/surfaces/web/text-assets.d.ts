// Style sheets and uPlot's minified script are imported as text (`with { type: "text" }`) so they ship inside the binary.
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.min.js" {
  const text: string;
  export default text;
}
