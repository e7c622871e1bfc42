// An S3 protocol server (s3rver, from npm) on 127.0.0.1 with a throwaway directory: the S3 file
// store is tested against a real server speaking the protocol, signed requests included.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";

export interface S3Server {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3(bucket = "parley-test"): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "parley-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const info = (await server.run()) as { address: string; port: number };
  return {
    env: {
      PARLEY_S3_BUCKET: bucket,
      PARLEY_S3_ENDPOINT: `http://127.0.0.1:${info.port}`,
      PARLEY_S3_REGION: "us-east-1",
      PARLEY_S3_ACCESS_KEY_ID: "S3RVER",
      PARLEY_S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
