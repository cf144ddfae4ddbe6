// Ponder requires an API file. The service's API is the separate Hono app in api/, which reads the
// `app` views; Ponder's own server only answers /health, /ready and /status for operators.
import { Hono } from "hono";

export default new Hono();
