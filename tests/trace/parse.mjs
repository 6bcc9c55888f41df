// Parse a Chrome trace-event file (JSON, or gzip'd JSON) with Chrome
// DevTools' own trace engine, the parser of its Performance panel, and
// check that every complete event ("ph": "X") landed on a named track.
// Usage: node parse.mjs FILE; exit 0 when it parses and every event is there.
import fs from 'node:fs';
import zlib from 'node:zlib';
import * as Trace from '@paulirish/trace_engine';

const file = process.argv[2];
let buf = fs.readFileSync(file);
if (buf[0] === 0x1f && buf[1] === 0x8b)
	buf = zlib.gunzipSync(buf);
const events = JSON.parse(buf.toString('utf8')).traceEvents;
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const parsed = model.parsedTrace();
if (!parsed)
	throw new Error(`${file}: the trace engine made nothing of it`);
const want = events.filter(e => e.ph === 'X').length;
let got = 0;
const unnamed = [];
for (const [, proc] of parsed.data.Renderer.processes)
	for (const [tid, th] of proc.threads) {
		got += th.entries.length;
		if (!th.name)
			unnamed.push(tid);
	}
console.log(`${file}: ${got} of ${want} complete events on ${parsed.data.Renderer.processes.size} ` +
	    `process(es), bounds ${parsed.data.Meta.traceBounds.range} us`);
if (got !== want || want === 0 || unnamed.length) {
	console.log(`FAIL: ${want - got} events missing; tracks without a name: ${unnamed.join(' ')}`);
	process.exit(1);
}
