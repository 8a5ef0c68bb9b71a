// A long-lived build process for tests, as `content dev` is one long-lived process that
// rebuilds: reads one JSON request a line on stdin ({ content, out, today, baseUrl? }), builds
// with the real `buildSite`, and answers one JSON line on stdout. Run with `node --import tsx`.
import { createInterface } from 'node:readline';
import { buildSite } from '../../cli/build-site.ts';

interface Request {
  content: string;
  out: string;
  today: string;
  baseUrl?: string;
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const request = JSON.parse(line) as Request;
  let answer: object;
  const cpu = process.cpuUsage();
  try {
    const result = await buildSite({ content: request.content, out: request.out, today: request.today, baseUrl: request.baseUrl });
    answer = result.ok
      ? { ok: true, rendered: result.summary.rendered, pages: result.summary.pages, fallbacks: result.summary.fallbacksPerLocale }
      : { ok: false, problems: result.problems.filter((p) => p.severity === 'error').map((p) => `${p.file}: ${p.message}`) };
  } catch (error) {
    answer = { ok: false, crashed: String((error as Error).stack ?? error) };
  }
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${JSON.stringify({ ...answer, cpuMs: Math.round((used.user + used.system) / 1000) })}\n`);
}
