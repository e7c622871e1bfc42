// A port nothing listens on right now, on 127.0.0.1: for the servers the tests and the bench start
// (Parley's binary, Dovecot, PostgreSQL). Another process could take it before it is used; the
// harnesses that start those servers say so if that happens.
export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}
