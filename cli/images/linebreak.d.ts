/** The part of `linebreak`'s API the card's layout uses (the package has no types). */
declare module 'linebreak' {
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): { position: number; required: boolean } | null;
  }
}
