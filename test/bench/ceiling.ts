// The ceiling: a bare Bun.serve JSON handler. Every scenario is reported as a ratio of this, so the
// figures mean something on any machine.
const port = Number(process.argv[2] ?? 0);
const body = { ok: true, id: 1, name: "helpdesk", status: "open" };
const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: () => Response.json(body) });
console.log(`ceiling listening on ${server.port}`);
