// A real SMTP server (the smtp-server package) on 127.0.0.1 that records what Parley sends, with
// switches for the failures the tests need: refuse recipients with 550, or be down altogether.
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

export interface RecordedMail {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpRecorder {
  port: number;
  user: string;
  password: string;
  mails: RecordedMail[];
  /** Resolves with the nth mail (1-based) once it has arrived. */
  mail(n: number): Promise<RecordedMail>;
  refuseRecipients(reason: string | null): void;
  close(): Promise<void>;
}

export async function startSmtpRecorder(port = 0): Promise<SmtpRecorder> {
  const mails: RecordedMail[] = [];
  const waiters: { n: number; resolve: (m: RecordedMail) => void }[] = [];
  let refusal: string | null = null;
  const user = "support@acme.test";
  const password = "smtp-app-password";
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) return cb(null, { user });
      const e = Object.assign(new Error("Invalid username or password"), { responseCode: 535 });
      cb(e);
    },
    onRcptTo(_address, _session, cb) {
      if (refusal) return cb(Object.assign(new Error(refusal), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
        };
        mails.push(mail);
        for (const w of waiters.filter((w) => w.n <= mails.length)) w.resolve(mails[w.n - 1]!);
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const bound = (server.server.address() as { port: number }).port;
  return {
    port: bound,
    user,
    password,
    mails,
    mail(n) {
      if (mails.length >= n) return Promise.resolve(mails[n - 1]!);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    refuseRecipients(reason) {
      refusal = reason;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** PARLEY_SMTP_URL pointing at a recorder, with its login. */
export function smtpUrlOf(r: SmtpRecorder): string {
  return `smtp://${encodeURIComponent(r.user)}:${r.password}@127.0.0.1:${r.port}`;
}

/** Call once at the top of a test file: `start()` gives a recorder that is closed after its test. */
export function recorderPerTest(afterEach: (fn: () => Promise<void>) => void): () => Promise<SmtpRecorder> {
  let open: SmtpRecorder | null = null;
  afterEach(async () => {
    await open?.close();
    open = null;
  });
  return async () => (open = await startSmtpRecorder());
}
