import { startIndependentServer } from "./server.js";

const port = Number(process.env["PORT"] ?? "0");
const srv = await startIndependentServer({ port: Number.isFinite(port) ? port : 0 });
console.log(`listening ${srv.url} token ${srv.token}`);
const stop = () => {
  void srv.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
