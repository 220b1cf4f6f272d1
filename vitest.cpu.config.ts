import base from "./vitest.config.js";
import { defineConfig, mergeConfig } from "vitest/config";
export default mergeConfig(base, defineConfig({ test: { setupFiles: ["/tmp/cpu/setup.ts"] } }));
