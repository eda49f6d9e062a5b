/** The page script, embedded as text (imported `with { type: "text" }`). */
declare const text: string;
export default text;
