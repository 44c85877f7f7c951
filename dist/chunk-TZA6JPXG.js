import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
function s(e){return`${e.file}:${e.line}:${e.column}: ${e.severity}: ${e.message}`}var r=class extends Error{constructor(n,o=[]){super(n);this.diagnostics=o;this.name="InputError"}diagnostics},t=class extends r{name="UsageError"};export{s as a,r as b,t as c};
