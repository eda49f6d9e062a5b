/** Whether text[from, to) is blank (spaces, tabs and carriage returns only): a line read in place, without slicing it out. */
export function blankSpan(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
