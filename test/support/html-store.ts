import { gunzipSync } from "node:zlib";

/** The review page's store of lazy bodies (transcripts, long lists), every chunk decoded as the page's script does. */
export function storeOf(html: string): Record<string, string> {
  const chunks = [
    ...html.matchAll(
      /<script type="text\/plain" class="sg-store" data-chunk="\d+" data-encoding="gzip\+base64">([A-Za-z0-9+/=]*)<\/script>/g,
    ),
  ];
  if (!chunks.length) throw new Error("the page has no store");
  return Object.assign(
    {},
    ...chunks.map((m) => JSON.parse(gunzipSync(Buffer.from(m[1]!, "base64")).toString("utf8"))),
  );
}
