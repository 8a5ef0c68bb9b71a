// A worker thread of `content build` that draws share cards (share-cards.ts: satori lays the card
// out, resvg rasterises it, node's zlib writes the PNG), so that none of it runs on the build's thread.
// Sent `{ warm: true }` first (it loads satori, its layout engine and the fonts while the pages are
// made), then one card at a time; answers each with its PNG or the reason it could not be drawn.
import { parentPort } from 'node:worker_threads';
import type { CardModel } from '../../templates/model.ts';
import { cardSvg, drawCard } from './share-cards.ts';

const WARM: CardModel = { file: 'cards/warm.png', locale: 'ru', title: 'Студия · Studio' };

parentPort!.on('message', async (task: { warm?: true; id: number; card: CardModel; outDir: string }) => {
  if (task.warm) {
    await cardSvg(WARM, () => Buffer.alloc(0)).catch(() => undefined);
    return;
  }
  try {
    const png = await drawCard(task.card, task.outDir);
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
    parentPort!.postMessage({ id: task.id, png: bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: String((error as Error)?.message ?? error) });
  }
});
