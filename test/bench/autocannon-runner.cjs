// Runs autocannon (Node) with a rotating list of requests, so a scenario can spread writes over
// many conversations (the per-conversation flood guard is 200 messages a minute) or mix reads and
// writes. Input: the path of a JSON spec file; output: autocannon's JSON result on stdout.
const autocannon = require("autocannon");
const { readFileSync } = require("node:fs");

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
let next = 0;
const requests = [
  {
    setupRequest(req) {
      const r = spec.requests[next++ % spec.requests.length];
      return { ...req, method: r.method || "GET", path: r.path, body: r.body, headers: { ...req.headers, ...(r.headers || {}) } };
    },
  },
];
autocannon(
  { url: spec.url, connections: spec.connections, duration: spec.duration, headers: spec.headers || {}, requests },
  (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(result));
  },
);
