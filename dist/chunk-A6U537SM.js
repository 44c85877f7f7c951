import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-CYERNGMK.js";import"./chunk-NPDMPLWO.js";export{e as DEFAULT_COMMAND_MEMORY_MB,d as RSS_OVERHEAD_MB,a as isSecretName,f as permissionFlags,c as redactSecrets,g as runSandboxed,h as runSandboxedCommand,b as scrubbedEnv};
