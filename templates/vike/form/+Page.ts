// The document is rendered by +onRenderHtml from the page model; Vike still expects a Page.
export default function Page() {
  return null;
}
