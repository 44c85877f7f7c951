import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var e=["boundary","conservation","contrast","queue","tenant-isolation","complexity","analytics","leakage"];function n(t){return e.includes(t)}export{e as a,n as b};
