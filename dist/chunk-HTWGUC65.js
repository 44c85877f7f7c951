import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
process.on("SIGUSR1",()=>{});function s(){return process.allowedNodeEnvironmentFlags.has("--disable-sigusr1")?["--disable-sigusr1"]:[]}var r="0.1.0";export{s as a,r as b};
