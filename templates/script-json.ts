/** JSON inside a <script> element: `<` escaped so no text can close the element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');
