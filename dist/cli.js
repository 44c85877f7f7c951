#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a as Ne}from"./chunk-TCVGYCSF.js";import{a as We,b as Be,c as Ke,e as A}from"./chunk-2FQBRCAP.js";import{b as Xe}from"./chunk-B5FHIJDM.js";import"./chunk-MTWPTEYP.js";import{a as Ye,b as ze,c as Qe,d as Ze,e as et,f as j,g as tt,h as st,i as rt,j as ot,k as nt,l as it,m as L,n as at,o as lt,p as ct,q as dt,r as ut,s as pt,t as ft}from"./chunk-ULQZRSTM.js";import"./chunk-O5E77MXQ.js";import{b as Je,k as K,n as Ue,o as Ge,u as Ve,z as qe}from"./chunk-H4MYSUXY.js";import{a as Re,b as q,c as W,d as B,e as _e,f as y,g as X}from"./chunk-ZF6AO5E3.js";import{b as Me}from"./chunk-HVHOAO2S.js";import{c as Ie}from"./chunk-6DFWE2UB.js";import{a as H}from"./chunk-IWZJ6K37.js";import{a as ee,b as Te,c as Fe,f as ms,g as Pe,h as F,m as He}from"./chunk-6DPT4R74.js";import{a as Le}from"./chunk-2QNNKPWQ.js";import"./chunk-VGLHLPIK.js";import{a as je}from"./chunk-EVFGY3GY.js";import"./chunk-QWKJDWXT.js";import"./chunk-UMZ7LM6X.js";import{a as ke,b as Z,c as be,d as $e,e as ve,f as Se,h as Oe,j as xe,k as Ce,m as Ee}from"./chunk-H2TK2VDZ.js";import"./chunk-VLW4CDKC.js";import{a as fs}from"./chunk-VU4NJEFY.js";import"./chunk-AUMSDTJ4.js";import"./chunk-XS4L33KL.js";import"./chunk-EOC72IMG.js";import"./chunk-DCKX3DJW.js";import{g as De}from"./chunk-DYABEER3.js";import{a as te,b as Ae}from"./chunk-PSP3JVTI.js";import{a as T,b as x,c as k}from"./chunk-TZA6JPXG.js";import{e as V,f as O}from"./chunk-R7HY74Y5.js";import"./chunk-7YYJ4RBL.js";import"./chunk-2NTZGRJK.js";import{d as ye}from"./chunk-NPDMPLWO.js";import{existsSync as ws,statSync as ys}from"node:fs";import{resolve as ks}from"node:path";import{parseArgs as gs}from"node:util";function M(e,s){let t,r=Number.POSITIVE_INFINITY;for(let n of s){let o=n.startsWith(e)||e.startsWith(n)?1:je(e,n);o<r&&(t=n,r=o)}return t!==void 0&&r<=Math.max(2,Math.floor(e.length/3))?` (did you mean ${t}?)`:""}function hs(e,s){let t=Object.entries(s).flatMap(([n,o])=>[`--${n}`,...o.short?[`-${o.short}`]:[]]),r=/'([^']+)'/.exec(e.message)?.[1]??"";switch(e.code){case"ERR_PARSE_ARGS_UNKNOWN_OPTION":return`unknown option ${r}${M(r,t)}`;case"ERR_PARSE_ARGS_INVALID_OPTION_VALUE":{let n=/(--?[\w-]+)/.exec(e.message)?.[1]??r;return s[n.replace(/^-+/,"")]?.type==="boolean"?`option ${n} takes no value`:`option ${n} needs a value`}case"ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":return`unexpected argument ${r}`;default:return e.message}}function S(e,s){try{return gs({...s,args:e,strict:!0})}catch(t){let r=t;throw typeof r.code=="string"&&r.code.startsWith("ERR_PARSE_ARGS")?new k(hs(r,s.options)):t}}var mt=42,re=`Usage: skillgate gate <gate-id> <module> [options]

Runs one deterministic gate on the module an agent wrote, in the sandbox; prints each check.

  --export NAME     the function to test (default: the name the gate expects, e.g. allocate for conservation)
  --options JSON    the gate's options, a JSON object
  --seed N          seed of the property-based probes (default ${mt}); printed with a replay line
  --timeout MS      time limit of the sandboxed run
  --memory MB       memory limit of the sandboxed run
  --json            print the result as JSON

Gates: ${te.join(", ")}
Exit codes: 0 pass, 1 fail, 2 usage error.`;function se(e,s,t){if(e===void 0)return;let r=Number(e);if(!/^\d+$/.test(e)||!Number.isSafeInteger(r)||r>t)throw new k(`--${s} must be an integer from 0 to ${t} (got '${e}')`);return r}async function gt(e,s){let{values:t,positionals:r}=S(e,{allowPositionals:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return s.stdout(`${re}
`),0;let[n,o,...a]=r;if(!n||!o)throw new k("expected a gate id and a module path");if(a.length)throw new k(`unexpected argument '${a[0]}'`);if(!Ae(n))throw new k(`unknown gate '${n}'${M(n,te)}`);let l=ks(o);if(!ws(l)||!ys(l).isFile())throw new k(`module ${o}: no such file (${l})`);let i;if(t.options!==void 0){try{i=JSON.parse(t.options)}catch(h){throw new k(`--options is not valid JSON: ${h.message}`)}if(i===null||typeof i!="object"||Array.isArray(i))throw new k("--options must be a JSON object");let f=Le(n,i);if(f.length)throw new k(`--options for gate ${n}: ${f.map(h=>`${h.path||"(options)"}: ${h.message}`).join("; ")}`)}let c=se(t.seed,"seed",2**31-1)??mt,p=se(t.timeout,"timeout",36e5),d=se(t.memory,"memory",65536),u=await Ne(n,o,{export:t.export,options:i,seed:c,timeoutMs:p,memoryMb:d});if(t.json)s.stdout(`${JSON.stringify(u,null,2)}
`);else{s.stdout(`${u.passed?"PASS":"FAIL"} ${u.gate} ${o} (seed ${u.seed})
`);for(let f of u.checks)s.stdout(`  ${f.passed?"\u2713":"\u2717"} ${f.id}: ${f.message}
`);u.passed||s.stdout(`replay: skillgate gate ${n} ${o} --seed ${u.seed}${t.export?` --export ${t.export}`:""}${t.options?` --options '${t.options}'`:""}
`)}return u.passed?0:1}import{mkdir as er,writeFile as tr}from"node:fs/promises";import{dirname as sr,join as rr,resolve as ne}from"node:path";var Nt=ye(ms(),1);import{existsSync as Pt}from"node:fs";import{join as Dt,posix as Gs}from"node:path";var Y=.1,ht=400,bs=new Set(["Skill"]),oe=["first-number","last-line","json"];function P(e){let s=e.output.length>ht?`${e.output.slice(0,ht)}\u2026`:e.output;return{mode:e.mode,trial:e.trial,output:s,tools:e.toolCalls.map(t=>t.name)}}function _(e){return e.toolCalls.map(s=>s.name).filter(s=>!bs.has(s))}function wt(e){return typeof e=="string"?e.trim().replace(/\s+/g," "):Ye(e)}function yt(e){let s=new Map;for(let o of oe){let a=Te(o,e.output);a.ok&&s.set(o,{key:wt(a.value),value:a.value})}let t=Fe(e.output);if(t.ok&&t.value&&typeof t.value=="object"&&!Array.isArray(t.value))for(let[o,a]of Object.entries(t.value))/^[A-Za-z_][A-Za-z0-9_]*$/.test(o)&&(typeof a!="object"||a===null)&&s.set(`json:${o}`,{key:wt(a),value:a});let r=_(e);s.set("tools",{key:r.join(" \u2192 ")||"(none)",value:r});let n=Object.keys(e.files).sort();return s.set("files",{key:n.join(", ")||"(none)",value:n}),s}function kt(e){let s=new Set(e.flatMap(t=>t.checks.filter(r=>r.status==="pass").map(r=>r.assertionId)));return e.map(t=>({...t,failed:t.checks.some(r=>(r.status==="fail"||r.status==="error")&&s.has(r.assertionId))}))}function z(e,s,t){let r=new Map;for(let l of s){let i=yt(l.record).get(e);if(!i)continue;let c=r.get(i.key)??{raw:i.value,ts:[]};c.ts.push(l),r.set(i.key,c)}let n=s.filter(l=>l.record.mode==="baseline").length,o=s.filter(l=>l.record.mode==="skill").length,a=[];for(let[l,i]of r){let c=i.ts.filter(f=>f.record.mode==="baseline").length,p=i.ts.filter(f=>f.record.mode==="skill").length,d=i.ts.every(f=>f.failed)&&s.some(f=>!f.failed),u=o>0&&n>0&&c/n>=t&&p/o<=Y;a.push({feature:e,value:l,raw:i.raw,baseline:c,skill:p,wrong:d||u,example:P((i.ts.find(f=>f.record.mode==="baseline")??i.ts[0]).record)})}return a.sort((l,i)=>i.baseline+i.skill-(l.baseline+l.skill)||l.value.localeCompare(i.value))}function bt(e){let s=new Set;for(let r of e)for(let n of yt(r.record).keys())s.add(n);let t=r=>r==="tools"?2:r==="files"?3:r.startsWith("json:")?1:0;return[...s].sort((r,n)=>t(r)-t(n)||r.localeCompare(n))}import{existsSync as xt,readFileSync as Ct}from"node:fs";import{mkdir as It,mkdtemp as $s,rm as vs,writeFile as Ss}from"node:fs/promises";import{tmpdir as Os}from"node:os";import{dirname as xs,join as D}from"node:path";var v=ye(fs(),1);function Rt(e,s,t=[]){let r=new Map,n=new Map;for(let o of s)o.file&&n.set(o.file,[...n.get(o.file)??[],o]);for(let o of t){let a=(n.get(o.file)??[]).filter(p=>p.kind!=="mark-discriminator");n.delete(o.file);let l={...o.written,id:o.caseDef.id,prompt:o.caseDef.prompt},i=[...l.assertions??[],...a.map(p=>p.assertion)],c=(0,v.parseDocument)("{}");c.contents=c.createNode({...l,assertions:i}),r.set(o.file,`# Harvested by skillgate harvest: review before committing.
${c.toString({lineWidth:0})}`)}for(let[o,a]of n){let l=D(e,o),i=xt(l)?Ct(l,"utf8"):"";r.set(o,o.endsWith(".json")?Ts(i,a):Is(i,a))}return r}function Cs(e){if((0,v.isSeq)(e.contents))return e.contents;(0,v.isMap)(e.contents)||(e.contents=e.createNode({}));let s=e.contents;return(0,v.isSeq)(s.get("assertions"))||s.set("assertions",e.createNode([])),s.get("assertions")}function Is(e,s){let t=(0,v.parseDocument)(e===""?"[]":e),r=e===""?void 0:Rs(t);if(!r)return $t(t,s);let n=[],o=vt(e,r.range[0]),a=s.filter(i=>i.kind!=="mark-discriminator").map(i=>Es((0,v.stringify)([i.assertion],{lineWidth:0}),o)).join("");a&&n.push({at:St(e,r.range[1]),text:a});for(let i of s.filter(c=>c.kind==="mark-discriminator")){let c=r.items.find(d=>(0,v.isMap)(d)&&d.get("id")===i.assertion.id);if(!(0,v.isMap)(c)||c.flow||!c.range)return $t(t,s);let p=vt(e,c.range[0]);n.push({at:St(e,c.range[1]),text:`${" ".repeat(p)}discriminator: true
`})}let l=e.endsWith(`
`)?e:`${e}
`;for(let i of n.sort((c,p)=>p.at-c.at))l=`${l.slice(0,i.at)}${i.text}${l.slice(i.at)}`;return l}function Rs(e){let s=(0,v.isSeq)(e.contents)?e.contents:(0,v.isMap)(e.contents)?e.contents.get("assertions"):void 0;return(0,v.isSeq)(s)&&!s.flow&&s.items.length>0&&s.range?s:void 0}function $t(e,s){let t=Cs(e);for(let r of s)if(r.kind==="mark-discriminator"){let n=t.items.find(o=>(0,v.isMap)(o)&&o.get("id")===r.assertion.id);(0,v.isMap)(n)&&n.set("discriminator",!0)}else t.add(e.createNode(r.assertion));return e.toString({lineWidth:0})}function vt(e,s){return s-(e.lastIndexOf(`
`,s-1)+1)}function St(e,s){let t=e.indexOf(`
`,Math.max(0,s-1));return t<0?e.length+1:t+1}function Es(e,s){let t=" ".repeat(s);return e.split(`
`).filter(r=>r!=="").map(r=>`${t}${r}
`).join("")}function Ts(e,s){let t=e.trim()===""?[]:JSON.parse(e),r=t;!Array.isArray(t)&&!Array.isArray(r.assertions)&&(r.assertions=[]);let n=Array.isArray(t)?t:r.assertions;for(let o of s)if(o.kind==="mark-discriminator"){let a=n.find(l=>l.id===o.assertion.id);a&&(a.discriminator=!0)}else n.push(o.assertion);return`${JSON.stringify(t,null,2)}
`}async function Et(e,s){let t=await $s(D(Os(),"skillgate-harvest-"));try{for(let[n,o]of s){let a=D(e,n);xt(a)&&await Ot(D(t,"a",n),Ct(a,"utf8")),await Ot(D(t,"b",n),o)}await It(D(t,"a"),{recursive:!0});let r=await Re("git",["diff","--no-index","--no-color","a","b"],{cwd:t,reject:!1});if(r.exitCode!==0&&r.exitCode!==1)throw new Error(`git diff failed: ${r.stderr}`);return r.stdout.replace(/^diff --git a\/[ab]\/(\S+) b\/[ab]\/(\S+)$/gm,"diff --git a/$1 b/$2").replace(/^(---|\+\+\+) ([ab])\/[ab]\//gm,"$1 $2/").concat(r.stdout?`
`:"")}finally{await vs(t,{recursive:!0,force:!0})}}async function Ot(e,s){await It(xs(e),{recursive:!0}),await Ss(e,s)}import{readFileSync as Fs}from"node:fs";import{dirname as As,isAbsolute as js,relative as Ls,resolve as Tt}from"node:path";var Ps=/^[A-Za-z0-9][A-Za-z0-9._:-]*$/;function Ft(e,s,t){let r=Tt(s),n=Ls(Tt(e),r),o=n!==""&&!n.startsWith("..")&&!js(n),a=o?n.split("\\").join("/"):r,l;try{l=Fs(r,"utf8")}catch(m){throw new x(`${a}: cannot read the prompts file: ${m.message}`)}let i=qe(a,l),c=new it(e,t);c.diagnostics.push(...i.diagnostics);let p=Array.isArray(i.value)?i.value:Array.isArray(i.value?.cases)?i.value.cases:void 0,d=Array.isArray(i.value)?[]:["cases"];i.value!==void 0&&!p&&c.error(i.locate([]),"harvest/prompts","a prompts file is a list of prompts (or `{cases: [...]}`)");let u=[];(p??[]).forEach((m,g)=>{let b=[...d,g],w=typeof m=="string"?{id:`prompt-${g+1}`,prompt:m}:{id:`prompt-${g+1}`,...m};if(!c.validate(Ve,w,i,b,"harvest/case")||!Ps.test(String(w.id)))return;let $=w,R=[];$.files&&o?R=c.caseFiles($.files,As(a),i,[...b,"files"]):$.files&&c.error(i.locate([...b,"files"]),"harvest/files","`files` need the prompts file inside the repository (they are read relative to it)");let ds=Array.isArray($.assertions)?$.assertions.flatMap((us,ps)=>c.assertion(us,i,[...b,"assertions",ps])??[]):[];u.push({caseDef:{id:String($.id),prompt:String($.prompt),files:R,assertions:ds,vars:$.vars??{},loc:i.locate(b),promptLoc:i.locate(typeof m=="string"?b:[...b,"prompt"])},written:w})});let f=new Set;for(let m of u)f.has(m.caseDef.id)&&c.error(m.caseDef.loc,"harvest/duplicate-case",`case id \`${m.caseDef.id}\` appears twice`),f.add(m.caseDef.id);let h=c.diagnostics.filter(m=>m.severity==="error");if(h.length)throw new x(h.map(T).join(`
`),h);if(u.length===0)throw new x(`${a}: the prompts file holds no prompt`);return u}function Ds(e,s,t){let r=[];for(let n of s){if(!oe.includes(n)&&!n.startsWith("json:"))continue;let o=z(n,e,t).filter(a=>a.wrong);o.length!==0&&r.push({kind:"not-one-of",assertion:{id:`D:not-${J(o[0].value)}`,type:"not-one-of",extract:n,values:o.map(a=>a.raw)},rationale:`${n}: ${o.map(a=>`${Ns(a)} (baseline ${a.baseline}, skill ${a.skill})`).join("; ")}`,rank:n.startsWith("json:")?0:n==="json"?1:n==="first-number"?2:3,example:o[0].example})}return r}function Ns(e){return JSON.stringify(e.value.length>80?`${e.value.slice(0,80)}\u2026`:e.value)}function Hs(e,s){let t=e.filter(i=>i.record.mode==="baseline"),r=e.filter(i=>i.record.mode==="skill"),n=(i,c)=>i.length?i.filter(c).length/i.length:0,o=i=>c=>_(c.record).includes(i),a=[...new Set(e.flatMap(i=>_(i.record)))].sort(),l=[];for(let i of a){let c=e.filter(o(i)),p=c.every(u=>u.failed)&&e.some(u=>!u.failed&&!o(i)(u)),d=r.length>0&&n(t,o(i))>=s&&n(r,o(i))<=Y;p||d?l.push({kind:"tool-not-called",assertion:{id:`D:no-${J(i)}`,type:"tool-not-called",tool:i},rationale:`${i} called in ${c.filter(u=>u.record.mode==="baseline").length}/${t.length} baseline and ${c.filter(u=>u.record.mode==="skill").length}/${r.length} skill trial(s)`,rank:0}):r.length>0&&n(r,o(i))>=1-Y&&n(t,u=>!o(i)(u))>=s&&l.push({kind:"tool-called",assertion:{id:`D:calls-${J(i)}`,type:"tool-called",tool:i},rationale:`${i} skipped in ${t.filter(u=>!o(i)(u)).length}/${t.length} baseline trial(s), called in ${r.filter(o(i)).length}/${r.length} skill trial(s)`,rank:0})}for(let i of a)for(let c of a){if(i===c)continue;let p=h=>{let m=_(h.record),g=m.indexOf(i),b=m.indexOf(c);return g>=0&&b>=0?g<b:void 0},d=r.filter(h=>p(h)!==void 0),u=t.filter(h=>p(h)!==void 0);if(d.length===0||u.length===0||!d.every(h=>p(h)===!0))continue;let f=u.filter(h=>p(h)===!1).length;f/t.length<s||l.push({kind:"tool-order",assertion:{id:`D:${J(i)}-before-${J(c)}`,type:"tool-order",values:[i,c]},rationale:`${c} before ${i} in ${f}/${t.length} baseline trial(s); ${i} first in every skill trial calling both`,rank:0})}return l}function J(e){return e.toLowerCase().replace(/[^a-z0-9#]+/g,"-").replace(/^-+|-+$/g,"").slice(0,32).replace(/-+$/,"")||"answer"}function Ms(e,s){let{id:t,type:r,extract:n,...o}=e;return{id:t,rawType:r,type:r,negate:!1,discriminator:!0,dependsOn:[],...n?{extract:n}:{},params:o,loc:s.loc}}async function _s(e,s,t,r,n){let o={...s,assertions:[Ms(e,s)]},a=await Promise.all(r.map(async l=>{let i=await He({suite:t,caseDef:o,trial:l.record,vars:{},repoDir:n.repoDir,gateSeed:n.gateSeed});return{mode:l.record.mode,pass:i.at(-1).status==="pass"}}));return{...At(a),fails:a.map(l=>!l.pass)}}function Js(e,s,t,r){if(!t.some(Boolean))return;let n=(o,a)=>o.checks.find(l=>l.assertionId===a)?.status;return e.assertions.find(o=>Pe(o)===r&&s.some(a=>n(a,o.id)==="pass")&&s.every((a,l)=>!t[l]||n(a,o.id)==="fail"))?.id}function At(e){let s=e.filter(r=>r.mode==="baseline"),t=e.filter(r=>r.mode==="skill");return{baselineFailure:ee(s.filter(r=>!r.pass).length,s.length),...t.length?{skillPass:ee(t.filter(r=>r.pass).length,t.length)}:{}}}function Us(e,s,t){let r=[];for(let n of e.assertions){if(n.discriminator)continue;let o=s.flatMap(i=>{let c=i.checks.find(p=>p.assertionId===n.id);return c&&c.status!=="skipped"?[{mode:i.record.mode,pass:c.status==="pass"}]:[]}),a=At(o);if(!a.skillPass||!jt(a,t))continue;let l=s.find(i=>i.record.mode==="baseline"&&i.checks.some(c=>c.assertionId===n.id&&c.status==="fail"));r.push({caseId:e.id,kind:"mark-discriminator",assertion:{id:n.id,type:n.rawType,...n.extract?{extract:n.extract}:{},...n.params,discriminator:!0},rationale:`${n.id} (${n.rawType}, ${n.loc.file}:${n.loc.line}) fails the baseline and passes the skill: mark it a discriminator`,...a,file:n.loc.file,...l?{example:P(l.record)}:{}})}return r}function jt(e,s){return e.baselineFailure.total>0&&e.baselineFailure.rate>=s.minBaselineFailure&&(e.skillPass===void 0||e.skillPass.rate>=s.minSkillPass)}async function Lt(e,s,t,r,n,o){let a=new Set(e.assertions.map(d=>d.id)),l=[],i=[];for(let d of[...Ds(t,r,o.minShare),...Hs(t,o.minShare)]){let u=String(d.assertion.id);for(let $=2;a.has(u);$++)u=`${d.assertion.id}-${$}`;let f={...d.assertion,id:u},{fails:h,...m}=await _s(f,e,s,t,o);if(!jt(m,o))continue;let g=Js(e,t,h,d.kind==="not-one-of"?"outcome":"process");if(g){l.push(`${d.kind} ${d.rationale}: already caught by ${g} (it fails in every trial this would)`);continue}let b=t.find($=>$.record.mode==="baseline"),w=d.example??(b?P(b.record):void 0);i.push({caseId:e.id,kind:d.kind,assertion:f,rationale:d.rationale,...m,file:n,...w?{example:w}:{},rank:d.rank,score:m.baselineFailure.rate*(m.skillPass?.rate??1)})}return{proposals:[...[...i.filter(d=>d.kind==="not-one-of").sort((d,u)=>u.score-d.score||d.rank-u.rank).slice(0,1),...i.filter(d=>d.kind!=="not-one-of")].map(({rank:d,score:u,...f})=>f),...Us(e,t,o)],notes:l}}var Vs=new Set(["skill-used","not-skill-used"]),qs=5;async function Ht(e,s){let t=e.logger,r=Ie(await De(),e);if(!r.go)throw r.refused;r.warning&&t.warn(r.warning);let n=j(F),o=L(e.repoDir,{profile:e.profile,globs:e.config.skills?.globs,include:e.config.skills?.include,exclude:e.config.skills?.exclude,assertionTypes:n}),a=Ws(o.skills,e.skillsFilter,s.promptsFile),l=e.trialsOverride??s.defaultTrials,i={name:"head",repoDir:e.repoDir,skills:o.skills.filter(w=>w.suite)},c=[];for(let w of a){let $=o.diagnostics.filter(R=>R.severity==="error"&&st(w,R.file));if($.length)throw new x(`${w.name}: its files do not validate (run skillgate validate): ${$.map(R=>`${R.file}:${R.line}: ${R.message}`).join("; ")}`);c.push(await Bs(w,i,e,s,l,n))}let p=new ut(e,{agentDir:e.policy.dir??e.repoDir}),d=c.flatMap(w=>w.requests),u=await p.forecast(c.flatMap(w=>w.requests.map($=>({skill:w.skill.name,battery:"discriminator",arm:"head",request:$}))),{maxConfirmationTrials:0,baseTrialsPerHeadTrial:0});for(let w of K(u))t.info(w);let f={tool:{name:"skillgate",version:H},seed:e.seed,agent:{adapter:e.agent.adapter,identity:p.identity},trials:l,withSkill:s.withSkill,thresholds:{minBaselineFailure:s.minBaselineFailure,minSkillPass:s.minSkillPass,minShare:s.minShare},forecast:u,skills:[],cost:{usd:0,agentCalls:0,cacheHits:0},errors:[]};if(u.overBudget)return f.errors.push(`not run: ${u.overBudget}`),{report:f,files:new Map};await p.run(d),f.errors.push(...p.runErrors),f.agent.identity=p.identity;let h=[];for(let w of c)f.skills.push(await Ks(w,p.records,e,s)),h.push(...w.newCases.values());f.cost={usd:p.cost.usd,agentCalls:p.cost.agentCalls,cacheHits:p.cost.cacheHits},await p.recordUsage();let m=f.skills.flatMap(w=>w.cases.flatMap($=>$.proposals)),g=h.filter(w=>m.some($=>$.file===w.file)),b=Rt(e.repoDir,m,g);return b.size&&(f.patchFiles=[...b.keys()].sort()),{report:V().redactDeep(f),files:b}}function Ws(e,s,t){let r=s?(0,Nt.default)(s,{dot:!0}):void 0,n=r?e.filter(o=>r(o.name)||r(o.path)||r(o.dir)):e.filter(o=>o.suite);if(n.length===0)throw new x(s?`--skills ${s} matches none of the ${e.length} skill(s) found (${e.map(o=>o.name).slice(0,8).join(", ")})`:"no skill with an eval suite found: name one with --skills and give its tasks with --prompts");if(t&&n.length>1)throw new x(`a prompts file is the tasks of one skill; --skills matches ${n.length}: ${n.map(o=>o.name).join(", ")}`);return n}async function Bs(e,s,t,r,n,o){let a=[],l=new Map,i,c,p=e.suite?.formats.includes("seed")?e.suite.root:`${tt}/${e.name}`;if(r.promptsFile){let m=Ft(t.repoDir,r.promptsFile,o);c=m[0].caseDef.loc.file,i={skill:e.name,root:e.suite?.root??p,formats:["seed"],meta:e.suite?.meta??{thresholds:{},vars:{},loc:{file:c,line:1,column:1},keyLoc:{}},cases:m.map(g=>g.caseDef),sourceFiles:[]};for(let g of m){let b=Gs.join(p,"prompts",`${g.caseDef.id}.yaml`);Pt(Dt(t.repoDir,b))?a.push(`${b} exists: case ${g.caseDef.id} of the prompts file gets no new case file (rename it)`):l.set(g.caseDef.id,{file:b,caseDef:g.caseDef,written:g.written})}}else{if(!e.suite)throw new x(`${e.name} has no eval suite: give its tasks with --prompts FILE`);i=e.suite,c=i.root}let d=await ct(i,t.repoDir);d.error&&a.push(d.error);let u=Qe(s,{...e,suite:i},{discriminator:!0,trigger:!1},d.vars),f=await dt(i,t.repoDir);a.push(...f.errors,...ze(u,f.vars));let h=Ze(u,{trials:n,triggerRuns:1,seed:t.seed,...r.withSkill?{}:{onlyModes:new Set(["baseline"])}});return{skill:e,job:u,source:c,requests:h,newCases:l,errors:a}}async function Ks(e,s,t,r){let n=e.job.skill.suite,o=await et(e.job,e.requests,s,{gateSeed:t.seed}),a=[];for(let l of n.cases){let i=e.requests.filter(f=>f.caseId===l.id);if(i.length===0)continue;let c=i.map(f=>({request:f,record:s.get(f.key)})).filter(f=>f.record),p=c.filter(f=>!f.record.error),d=new Set(["trial-ok",...l.assertions.filter(f=>Vs.has(f.type)).map(f=>f.id)]),u=kt(p.map(({request:f,record:h})=>({record:{...h,caseId:l.id,mode:f.mode,trial:f.trial},checks:o.filter(m=>m.caseId===l.id&&m.mode===f.mode&&m.trial===f.trial&&!d.has(m.assertionId))})));a.push(await Xs(l,n,u,c.length-p.length,e,t,r))}return{name:e.skill.name,source:e.source,cases:a,errors:e.errors}}async function Xs(e,s,t,r,n,o,a){let l=t.filter(m=>m.record.mode==="baseline").length,i=t.length-l,c=bt(t),p=[...c.flatMap(m=>z(m,t,a.minShare).filter((b,w)=>w<qs||b.wrong).map(({raw:b,...w})=>w)),...Ys(t)],d=n.newCases.get(e.id)?.file??Qs(e,s,o.repoDir),u=await Lt(e,s,t,c,d??"",{minBaselineFailure:a.minBaselineFailure,minSkillPass:a.minSkillPass,minShare:a.minShare,gateSeed:o.seed,repoDir:o.repoDir}),f=u.proposals,h=[...u.notes];return r&&h.push(`${r} trial(s) errored: left out`),d||h.push(`${e.loc.file} is not in the seed layout: proposals are reported, not patched`),f.length===0&&u.notes.length===0&&h.push(l===0?"no baseline trial gave an answer":!a.withSkill&&!t.some(m=>m.failed)?"nothing says which answers are wrong: no trial failed a check another passed (run --with-skill, or give the case a reference assertion)":"no answer separated failing from passing trials well enough"),{id:e.id,prompt:n.job.prompts.get(e.id)??e.prompt,trials:{baseline:l,skill:i,errored:r},clusters:p,proposals:f,notes:h}}function Ys(e){let s=new Map;for(let t of e)for(let r of t.checks){if(r.status!=="fail"&&r.status!=="error")continue;let n=zs(r),o=n.length?`failed invariants: ${n.join(", ")}`:r.status,a=`${r.assertionId}\0${o}`,l=s.get(a)??{feature:`check:${r.assertionId}`,value:o,ts:[]};l.ts.push(t),s.set(a,l)}return[...s.values()].map(t=>({feature:t.feature,value:t.value,baseline:t.ts.filter(r=>r.record.mode==="baseline").length,skill:t.ts.filter(r=>r.record.mode==="skill").length,wrong:!0,example:P(t.ts[0].record)}))}function zs(e){return(e.details?.gate?.checks??[]).filter(t=>!t.passed).map(t=>t.id)}function Qs(e,s,t){let r=e.assertions.find(n=>n.loc.file.startsWith(`${s.root}/assertions/`))?.loc.file;if(r)return r;for(let n of["yaml","yml","json"]){let o=`${s.root}/assertions/${e.id}.${n}`;if(Pt(Dt(t,o)))return o}return e.loc.file.startsWith(`${s.root}/prompts/`)?e.loc.file:void 0}var Mt=e=>e.total===0?"0/0":`${Math.round(e.rate*100)}% [${Math.round(e.low*100)}%\u2013${Math.round(e.high*100)}%] (${e.passed}/${e.total})`;function Zs(e){let{id:s,...t}=e.assertion;return[`    PROPOSE ${e.kind} ${String(s)} \u2192 ${e.file||"(not patched)"}`,`      ${JSON.stringify(t)}`,`      baseline fails it ${Mt(e.baselineFailure)}; skill passes it ${e.skillPass?Mt(e.skillPass):"not measured (no skill trials)"}`,`      why: ${e.rationale}`,...e.example?[`      e.g. ${e.example.mode} trial ${e.example.trial}: ${JSON.stringify(e.example.output.slice(0,160))}${e.example.tools.length?` tools ${e.example.tools.join(" \u2192 ")}`:""}`]:[]]}function _t(e,s={}){let t=[],r=e.skills.flatMap(n=>n.cases.flatMap(o=>o.proposals));t.push(`skillgate harvest: ${r.length} proposal(s) in ${e.skills.length} skill(s)  [agent ${e.agent.adapter}, ${e.trials} trial(s) per case and mode, ${e.withSkill?"baseline and skill":"baseline only"}, seed ${e.seed}]`);for(let n of e.errors)t.push(`  error: ${n}`);for(let n of e.skills){t.push("",`${n.name} (tasks: ${n.source})`);for(let o of n.errors)t.push(`  error: ${o}`);for(let o of n.cases){t.push(`  case ${o.id}: ${o.trials.baseline} baseline, ${o.trials.skill} skill trial(s)${o.trials.errored?`, ${o.trials.errored} errored`:""}`);for(let a of o.clusters.filter(l=>l.wrong))t.push(`    wrong ${a.feature}: ${JSON.stringify(a.value.length>100?`${a.value.slice(0,100)}\u2026`:a.value)}  baseline ${a.baseline}, skill ${a.skill}`);for(let a of o.proposals)t.push(...Zs(a));for(let a of o.notes)t.push(`    note: ${a}`)}}return t.push(""),s.patch&&t.push(`patch: ${s.patch} (review it, then apply from the repository root: git apply ${s.patch})`),s.out&&t.push(`proposed files: ${s.out}/ (${(e.patchFiles??[]).join(", ")||"none"})`),!s.patch&&!s.out&&e.patchFiles?.length&&t.push(`would change ${e.patchFiles.join(", ")}: write the patch with --patch FILE (nothing is applied for you)`),t.push(`agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}`),`${t.join(`
`)}
`}function N(e={}){let s=e.stream??process.stderr,t=!!s.isTTY,r=!1,n=0,o=()=>{t&&r&&(s.write("\r\x1B[K"),r=!1)},a=l=>{o(),s.write(`${O(l)}
`)};return{info:l=>!e.quiet&&a(l),warn:l=>a(`warning: ${l}`),error:l=>a(`error: ${l}`),debug:l=>e.verbose&&a(l),group:async(l,i)=>i(),progress(l){if(e.quiet)return;let i=ke(l);t?(s.write(`\r\x1B[K${i}`),r=l.done<l.total,r||s.write(`
`)):(l.done===l.total||Date.now()-n>5e3)&&(n=Date.now(),s.write(`${i}
`))}}}var ae=`Usage: skillgate harvest [options]

Runs unguided baseline trials (no skill installed) on a skill's tasks, clusters their answers and proposes
discriminator assertions from the wrong ones, each with its measured baseline failure rate (and skill pass rate
with --with-skill), as a suite patch for you to review. Nothing in the repository is changed.

  --repo DIR                 repository (default .)
  --skills GLOB              the skill(s) to harvest for (default: every skill with a suite)
  --prompts FILE             tasks from this YAML/JSON list instead of the suite's cases (one skill)
  --with-skill               also run skill trials: answers the skill avoids, and its pass rate per proposal
  --trials N                 trials per case and mode (default 5)
  --min-baseline-failure R   keep a proposal the baseline fails at least this often (default 0.3)
  --min-skill-pass R         and the skill passes at least this often, when measured (default 0.8)
  --min-share R              a wrong answer must be at least this share of the baseline's (default 0.2)
  --patch FILE               write the proposals as a unified diff (apply with git apply FILE)
  --out DIR                  write the proposed files under DIR (their repository paths)
  --json FILE                write the harvest report (clusters, proposals, forecast) as JSON
  --agent NAME, --config FILE, --seed N, --no-cache, --quiet, --verbose

Exit codes: 0 harvested (with or without proposals), 2 usage or configuration error, 3 agent or budget error.`;function ie(e,s,t){if(e===void 0)return t;let r=Number(e);if(!Number.isFinite(r)||r<0||r>1)throw new k(`${s} must be a number from 0 to 1 (got \`${e}\`)`);return r}async function Jt(e,s){let{values:t}=S(e,{options:{repo:{type:"string"},skills:{type:"string"},prompts:{type:"string"},"with-skill":{type:"boolean"},trials:{type:"string"},"min-baseline-failure":{type:"string"},"min-skill-pass":{type:"string"},"min-share":{type:"string"},patch:{type:"string"},out:{type:"string"},json:{type:"string"},agent:{type:"string"},config:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return s.stdout(`${ae}
`),y.pass;let r={withSkill:t["with-skill"]===!0,minBaselineFailure:ie(t["min-baseline-failure"],"--min-baseline-failure",.3),minSkillPass:ie(t["min-skill-pass"],"--min-skill-pass",.8),minShare:ie(t["min-share"],"--min-share",.2),defaultTrials:5,...t.prompts?{promptsFile:t.prompts}:{}},n=await A({repo:t.repo,skills:t.skills,agent:t.agent,trials:t.trials,seed:t.seed,noCache:t["no-cache"],config:t.config},N({quiet:t.quiet,verbose:t.verbose})),{report:o,files:a}=await Ht(n,r),l=async(i,c)=>{await er(sr(i),{recursive:!0}),await tr(i,O(c))};if(t.json&&await l(ne(t.json),`${JSON.stringify(o,null,2)}
`),t.patch&&await l(ne(t.patch),await Et(n.repoDir,a)),t.out)for(let[i,c]of a)await l(rr(ne(t.out),i),c);return s.stdout(_t(o,{patch:t.patch,out:t.out})),o.errors.length>0?y.error:y.pass}import{existsSync as Q,mkdirSync as or,readFileSync as nr,statSync as ir,writeFileSync as ar}from"node:fs";import{basename as lr,dirname as Vt,join as I,relative as le,resolve as qt}from"node:path";var C=(e,s,t)=>`# Robustness probe: ${e} (docs/robustness.md). ${s}
# Replace each TODO- key with the key it names; \`skillgate validate\` rejects the file until you do.
${t}`;function Ut(e){let s=`TODO-prompt: "a task in ${e}'s scope`;return{"prompts/probe-adversarial.yaml":C("adversarial-correctness","An edge case the naive answer gets wrong (empty input, a bound, overflow).",`id: probe-adversarial
dimension: adversarial-correctness
${s} with an edge case"
assertions:
  - id: D:not-the-naive-answer
    type: not-contains
    TODO-value: "what the naive answer says on the edge case"
`),"prompts/probe-underspecified.yaml":C("spec-underspecification","Leave out a detail (encoding, error behaviour); the agent should state the assumption it makes.",`id: probe-underspecified
dimension: spec-underspecification
${s} that leaves out a detail"
assertions:
  - id: states-assumption
    type: icontains
    value: assum
    rubric: stated
  - id: sensible-default
    type: icontains
    TODO-value: "the sensible default, e.g. utf-8"
    rubric: reasonable
`),"prompts/probe-phrasing.yaml":C("consistency-under-reformulation","The original of a pair; probe-phrasing-2 asks the same in other words and is graded by these checks.",`id: probe-phrasing
dimension: consistency-under-reformulation
${s}, imperative and formal"
assertions:
  - id: right-answer
    type: contains
    TODO-value: "what every correct answer contains"
`),"prompts/probe-phrasing-2.yaml":C("consistency-under-reformulation","The same task as probe-phrasing, reworded (casual, declarative, pseudocode); no checks of its own.",`id: probe-phrasing-2
reformulationOf: probe-phrasing
${s}, the same as probe-phrasing in other words"
`),"prompts/probe-recovery.yaml":C("error-recovery","A task agents often get wrong at first: a failing attempt gets its answer and failures back, up to 3 rounds.",`id: probe-recovery
dimension: error-recovery
${s} where first attempts often fail"
assertions:
  - id: fixed
    type: contains
    TODO-value: "what the fixed answer contains"
`),"prompts/probe-security.yaml":C("security-awareness","A task that invites an insecure pattern (SQL by interpolation, shell injection, eval, MD5 passwords).",`id: probe-security
dimension: security-awareness
${s} that invites an insecure pattern"
assertions:
  - id: no-insecure-pattern
    type: not-regex
    TODO-value: "a regex of the insecure pattern, e.g. \\\\$\\\\{"
  - id: warns
    type: icontains
    value: injection
    rubric: warning
`),"prompts/probe-hallucination.yaml":C("hallucination","A task needing a slightly obscure API; the agent's module is run, and import, attribute, name or arity errors from invented APIs count.",`id: probe-hallucination
dimension: hallucination
${s} that needs an obscure API; write it in src/probe.ts"
assertions:
  - id: runs
    type: gate
    gate: boundary
    module: src/probe.ts
    TODO-value: "export: the function's name (and the gate and options that fit it)"
`),"prompts/probe-degradation.yaml":C("graceful-degradation","A harder tier of a task: correct 3, honest about a partial answer 2, partial 1, silently wrong 0. Copy it per tier.",`id: probe-degradation
dimension: graceful-degradation
tier: 2
${s} at a hard tier"
assertions:
  - id: correct
    type: contains
    TODO-value: "what a correct answer contains"
  - id: honest
    type: icontains
    value: approximat
    rubric: honest
  - id: partial
    type: icontains
    value: partial
    rubric: partial
`),"prompts/probe-impossible.yaml":C("refusal-calibration","An impossible or contradictory task: the agent should refuse (probe-solvable is its control).",`id: probe-impossible
dimension: refusal-calibration
expect: refusal
${s} that is impossible as asked"
assertions:
  - id: refused
    type: icontains
    TODO-value: "a word every refusal of yours holds, e.g. cannot"
    rubric: refusal
`),"prompts/probe-solvable.yaml":C("refusal-calibration","A solvable control at the edge of the scope: refusing it is a false refusal.",`id: probe-solvable
dimension: refusal-calibration
${s} at the edge of its scope, solvable"
assertions:
  - id: refused
    type: icontains
    TODO-value: "a word every refusal of yours holds, e.g. cannot"
    rubric: refusal
`)}}var ce=`Usage: skillgate init SKILL [options]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md): evals/meta.json,
evals/prompts/example.yaml (one case with a discriminator) and evals/trigger-eval.json. What only you can
write is left as TODO-\u2026 keys that \`skillgate validate\` rejects, at their lines, until you replace them.

  --repo DIR    repository root (default .)
  --robustness  also one probe per robustness dimension (prompts/probe-*.yaml; docs/robustness.md)
  --force       overwrite an existing scaffold

Exit codes: 0 done, 2 usage error.`,cr=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function Wt(e,s){let{values:t,positionals:r}=S(e,{options:{repo:{type:"string"},force:{type:"boolean"},robustness:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0});if(t.help)return s.stdout(`${ce}
`),y.pass;if(r.length!==1)throw new k(r.length?`expected one skill, got ${r.length}`:"expected a skill");let n=qt(t.repo??"."),o=dr(n,r[0]),a=I(o,"SKILL.md"),l=le(n,a).split("\\").join("/"),i=ot(l,nr(a,"utf8"),"claude-code"),c=i.name??lr(o),p=i.version??"1",d=I(o,"evals"),u={"meta.json":`${JSON.stringify({skillVersion:p,suiteVersion:"1",trials:5,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${c} suite; add more files like this one in prompts/.
# A discriminator (id starting D:) forbids the single most tempting wrong answer an agent gives without the
# skill: test for the absence of that answer, not for one exact right answer.
# Replace each TODO- key with the key it names (\`skillgate validate\` rejects the file until you do):
#   TODO-prompt -> prompt: a realistic task where an agent without ${c} confidently answers wrong
#   TODO-value  -> value:  that wrong answer (the discriminator fails when the output contains it)
id: example
TODO-prompt: "a realistic task where an agent without the ${c} skill confidently answers wrong"
assertions:
  - id: D:avoids-the-tempting-wrong-answer
    type: not-contains
    TODO-value: "the wrong answer an agent gives without the skill"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({"TODO-shouldFire":[{prompt:`a request that should make the agent load ${c}`},{prompt:"another one, worded the way your users ask"}],"TODO-shouldNotFire":[{prompt:`a near miss: close to ${c}'s topic, but another skill's or none`},{prompt:"another near miss"}]},null,2)}
`};t.robustness&&Object.assign(u,Ut(c));let f=Object.keys(u).filter(m=>Q(I(d,m)));if(f.length&&!t.force)throw new k(`${le(n,d)} already has ${f.join(", ")}; pass --force to overwrite`);for(let[m,g]of Object.entries(u))or(Vt(I(d,m)),{recursive:!0}),ar(I(d,m),g),s.stdout(`created ${le(n,I(d,m)).split("\\").join("/")}
`);let h=t.repo===void 0?"":` --repo ${Gt(t.repo)}`;return s.stdout(["","Next steps:","  1. Replace the TODO- keys in prompts/example.yaml and trigger-eval.json; validate shows where each one is:",`       skillgate validate${h}`,"  2. Run the suite against your agent (here Claude Code: `claude` on PATH and ANTHROPIC_API_KEY set):",`       skillgate run${h} --skills ${Gt(c)} --agent claude-code`,""].join(`
`)),y.pass}function Gt(e){return/^[\w@%+=:,./-]+$/.test(e)?e:`'${e.replace(/'/g,"'\\''")}'`}function dr(e,s){let t=qt(e,s);if(Q(t)){let n=ir(t).isDirectory()?t:Vt(t);if(Q(I(n,"SKILL.md")))return n}for(let n of cr){let o=I(e,n,s);if(Q(I(o,"SKILL.md")))return o}let r=L(e,{profile:"claude-code",assertionTypes:j(F)}).skills.filter(n=>n.name===s||n.name.endsWith(`:${s}`));if(r.length===1)return I(e,r[0].dir);throw new k(r.length>1?`\`${s}\` names ${r.length} skills (${r.map(n=>n.name).join(", ")}): give the full name or the folder`:`no skill \`${s}\`: no SKILL.md at ${s}/ and no skill of that name in the repository`)}import{writeFile as U}from"node:fs/promises";var de=`Usage: skillgate merge REPORT|DIR... [options]

Combines shard reports into one (a missing or failed shard makes the verdict error).
Without --json the merged report is printed on stdout.

  --json FILE       write the merged JSON report
  --junit FILE      write JUnit XML
  --sarif FILE      write SARIF 2.1.0
  --markdown FILE   write the Markdown summary
  --html FILE       write the review report: one self-contained HTML page of every shard's skills

Exit codes: 0 pass, 1 fail, 2 usage error, 3 error.`,ur=512*1024;async function Bt(e,s){let{values:t,positionals:r}=S(e,{allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},html:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return s.stdout(`${de}
`),y.pass;if(r.length===0)throw new k("no report given");let n=Me(await _e(r)),o=`${JSON.stringify(n,null,2)}
`;t.json?await U(t.json,o):s.stdout(o),t.junit&&await U(t.junit,W(n)),t.sarif&&await U(t.sarif,B(n)),t.markdown&&await U(t.markdown,xe(n,{maxChars:ur,fullReportHint:t.json??"the JSON report",charts:!0})),t.html&&await U(t.html,O(q(V().redactDeep(n),{redact:O})));for(let a of n.errors)s.stderr(`skillgate merge: ${a}
`);return s.stderr(`skillgate merge: ${n.verdict} (${n.skills.length} skills, ${n.newRoots.length} new roots)
`),X(n.verdict)}import{mkdir as Qt,writeFile as Zt}from"node:fs/promises";import{dirname as es,resolve as ts}from"node:path";import{mkdir as gr,writeFile as hr}from"node:fs/promises";import{dirname as wr}from"node:path";var pr=15,Xt={pass:"PASS",fail:"FAIL",error:"ERROR"};function Yt(e,s){let t=mr(s.color),r=[],n=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;r.push(`${n(t.bold(`skillgate: ${Xt[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${Oe(e)}, seed ${e.seed}]`),e.scope&&r.push(`  ${e.scope.message}`),e.base&&r.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}${e.base.tip&&e.base.sha?` (merge base ${e.base.sha.slice(0,12)}; the base ref is now at ${e.base.tip.slice(0,12)})`:""}`)),r.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));let o=e.isolation,a=o?.resources?`; limits: ${o.resources.level}`:"";o&&o.level===o.required?r.push(t.dim(`  isolation: ${o.level}${a}`)):o&&r.push(t.yellow(t.bold(`  WARNING isolation: ${o.level}, weaker than ${o.required}${o.weakerAccepted==="config"?" (accepted by the config's isolation.allowWeaker)":""}: ${o.reason}${a}`)));for(let i of e.policy.roots)r.push(...pe(i,i.blocking?t.red:t.dim,t));for(let i of e.errors)r.push(t.yellow(`  error: ${i}`));e.matrix&&r.push("",...be(e.matrix).map(i=>i.includes("FLAGGED")?t.yellow(i):i));for(let i of e.skills)r.push("",...fr(i,t,s));let l=e.diagnostics.filter(i=>i.severity==="error");if(l.length){r.push("",t.bold("Validation errors"));for(let i of l)r.push(`  ${i.file}:${i.line}:${i.column}: ${i.message}`)}return e.levels?.length&&r.push("",...Z(e.levels).map(i=>t.dim(`levels, ${i}`))),r.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}${e.cost.unpricedCalls?` + unknown (${e.cost.unpricedCalls} call(s) of unknown price)`:""}; ${Ce(e)}`)),`${r.join(`
`)}
`}function fr(e,s,t){let r=[],n=e.verdict==="pass"?s.green:e.verdict==="fail"?s.red:s.yellow;r.push(`${n(Xt[e.verdict].padEnd(5))} ${s.bold(e.cell?`${e.name} (cell ${e.cell})`:e.name)} ${s.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let d=e.base?.discriminator;r.push(`      discriminator pass rate  skill ${E(o.skill.discriminatorPassRate)}  baseline ${E(o.baseline.discriminatorPassRate)}  lift ${ue(o.discriminatorLift)}`+(d?s.dim(`  (base: skill ${E(d.skill.discriminatorPassRate)}, lift ${ue(d.discriminatorLift)})`):"")),r.push(`      overall pass rate        skill ${E(o.skill.passRate)}  baseline ${E(o.baseline.passRate)}  lift ${ue(o.lift)}`),o.styleGuideNotGuardrail&&r.push(s.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}for(let d of Z(e.levels??[]))r.push(`      levels, ${d}`);let a=e.trigger;if(a){let d=e.base?.trigger;r.push(`      trigger${a.proxy?` (${a.router} proxy)`:""}  precision ${E(a.precision,Kt)}  recall ${E(a.recall)}  F1 ${a.f1.toFixed(2)}`+(d?s.dim(`  (base: precision ${d.precision.measured?G(d.precision.rate):Kt}, recall ${G(d.recall.rate)})`):""));for(let u of a.warnings)r.push(s.yellow(`      ${u}`))}e.robustness&&(t.verbose||e.robustness.dimensions.some(d=>d.measured&&d.selected))&&r.push(...Se(e.robustness));let l=new Map;for(let d of e.gates.filter(u=>!u.passed)){let u=`gate ${d.gate} failed on ${d.module} (${d.caseId}/${d.assertionId})`;l.set(u,(l.get(u)??0)+1)}for(let[d,u]of[...l].slice(0,5))r.push(`      ${d}${u>1?` in ${u} trials`:""}`);let i=e.roots.filter(d=>d.blocking),c=e.roots.filter(d=>!d.blocking),p=t.verbose?Number.POSITIVE_INFINITY:pr;for(let d of i.slice(0,p))r.push(...pe(d,s.red,s));if(i.length>p&&r.push(s.red(`      \u2026 ${i.length-p} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let d of c.slice(0,p))r.push(...pe(d,s.dim,s));c.length>p&&r.push(s.dim(`      \u2026 ${c.length-p} more root(s)`))}for(let d of e.reasons.slice(0,6))r.push(s.dim(`      \xB7 ${d}`));return r}function pe(e,s,t){let r=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",n=[s(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${r}`),`        ${e.message.split(`
`).join(`
        `)}`],o=e.cascaded.length?`cascaded (${e.cascaded.length}): ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`:void 0,a=[e.level?`level ${e.level}`:void 0,o].filter(Boolean);return a.length&&n.push(t.dim(`        ${a.join("; ")}`)),n}var Kt="n/a (never fired)";function E(e,s="n/a (none measured)"){return $e(e)?`${G(e.rate)} [${G(e.low)}\u2013${G(e.high)}] (${ve(e)})`:s}function G(e){return`${Math.round(e*100)}%`}function ue(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function mr(e){let s=t=>r=>e?`\x1B[${t}m${r}\x1B[0m`:r;return{red:s(31),green:s(32),yellow:s(33),dim:s(2),bold:s(1)}}var fe=`Usage: skillgate run [options]

Runs the batteries of the skills a change touches (or every skill), compares with the base, prints the verdict.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref (checked out in a temporary worktree)
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter (replay, claude-code, codex, command, openai, anthropic, lexical)
  --model NAME        the agent's model (agent.model), e.g. claude-sonnet-4-5 for --agent anthropic
  --cell NAMES        with an agents: matrix in the config, evaluate only these cells (comma separated)
  --trials N          trials per case and mode (default: meta.json, else 3)
  --shard I/N         evaluate only shard I of N (deterministic, balanced by expected cost)
  --seed N            seed of every randomised step (default 42); reported, replayable
  --no-cache          do not read or write the trial cache
  --config FILE       configuration file, a path from --repo (default .skillgate.yml); one outside the
                      repository is the operator's own, and its relative command paths resolve from its folder
  --json FILE         write the JSON report (and skill-creator exports to FILE's name + .skill-creator/)
  --junit FILE        write JUnit XML
  --sarif FILE        write SARIF (new roots as results with locations)
  --html FILE         write the review report: one self-contained HTML page (roots, transcripts, every trial)
  --markdown FILE     write the Markdown summary the check run shows
  --record DIR        write replay recordings of every trial run to DIR
  --allow-weakening   accept a weakened suite or policy: you, the operator, approve it (reported)
  --quiet, --verbose, --no-color

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`,me={repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},model:{type:"string"},cell:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},html:{type:"string"},markdown:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}};async function zt(e,s){let{values:t}=S(e,{options:me});if(t.help)return s.stdout(`${fe}
`),0;let r=N({quiet:t.quiet,verbose:t.verbose}),n=await A({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,model:t.model,cells:t.cell,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,html:t.html,markdown:t.markdown,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},r),o=await Xe(n,pt),a=async(i,c)=>{i&&(await gr(wr(i),{recursive:!0}),await hr(i,O(c)))};await a(n.outputs.json,`${JSON.stringify(o,null,2)}
`),await a(n.outputs.junit,W(o)),await a(n.outputs.sarif,B(o)),n.outputs.html&&await a(n.outputs.html,q(o,{blobBase:nt(n.repoDir,o.head.sha,process.env),redact:O})),n.outputs.markdown&&await a(n.outputs.markdown,Ee(o,{checkName:"skillgate",fullReportHint:n.outputs.json??n.outputs.html??"the JSON report (--json FILE)"}).outputs[0].summary);let l=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return s.stdout(Yt(o,{color:l,verbose:t.verbose})),X(o.verdict)}var ge=`Usage: skillgate plan [options]

Says what \`skillgate run\` with the same options would run and spend, without running any trial: per skill and
battery the trials of the first batch, the cache hits expected, the agent calls and their estimated cost (from the
usage recorded by earlier runs of the same agent), the confirmation allowance and the budget.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter
  --model NAME        the agent's model (agent.model), e.g. claude-sonnet-4-5 for --agent anthropic
  --trials N          trials per case and mode (overrides meta.json)
  --shard I/N         only shard I of N
  --seed N            seed of the run (default 42); recorded in the JSON forecast
  --no-cache          expect no cache hits
  --config FILE       configuration file, a path from --repo (default .skillgate.yml); one outside the
                      repository is the operator's own, and its relative command paths resolve from its folder
  --allow-weakening   as run: the operator accepts a weakened suite or policy
  --json FILE         write the forecast as JSON (seed, scope, forecast)
  --matrix FILE       write the job matrix this run needs as JSON ({"shard": ["1/n", \u2026]}): enough shards that
                      each one's first batch takes about --rounds rounds of agent calls (default 4)
  --rounds N          rounds of agent calls per shard's first batch for --matrix
  --cell NAMES        with an agents: matrix, forecast the first of these cells (comma separated)
  --junit FILE, --sarif FILE, --html FILE, --markdown FILE, --record DIR
                      accepted so that a run's command line plans unchanged: a plan runs no trial, so it writes
                      none of them
  --quiet, --verbose, --no-color
                      --verbose also prints the pipeline's own lines; the forecast has no colour

Exit codes: 0 within budget, 3 the first trials alone would exceed the budget (run would stop before spending),
2 usage or configuration error.`;async function ss(e,s){let{values:t}=S(e,{options:{...me,matrix:{type:"string"},rounds:{type:"string"}}});if(t.help)return s.stdout(`${ge}
`),y.pass;let r=await A({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,model:t.model,cells:t.cell,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},N({quiet:!t.verbose,verbose:t.verbose})),{forecast:n,scope:o}=await ft(r);if(s.stdout(`${[o.message,...K(n)].join(`
`)}
`),t.matrix){let a=t.rounds===void 0?void 0:Number(t.rounds);if(a!==void 0&&!(Number.isInteger(a)&&a>=1))throw new k(`--rounds: expected a positive integer, got ${JSON.stringify(t.rounds)}`);let l=Ue(n,{concurrency:r.concurrency,rounds:a});s.stdout(`fan out over ${l} shard(s): ${n.total.agentCalls} agent call(s) at ${r.concurrency} at once, about ${Math.ceil(n.total.agentCalls/l/r.concurrency)} round(s) of agent calls per shard's first batch
`);let i=ts(t.matrix);await Qt(es(i),{recursive:!0}),await Zt(i,`${JSON.stringify(Ge(l))}
`)}if(t.json){let a=ts(t.json);await Qt(es(a),{recursive:!0}),await Zt(a,`${JSON.stringify({seed:r.seed,scope:o,forecast:n},null,2)}
`)}return n.overBudget?y.error:y.pass}function rs(e,s){let t={error:[],warning:[],notice:[]};for(let o of["error","warning","notice"]){let a=new Map;for(let l of s)l.severity===o&&a.set(l.code,(a.get(l.code)??0)+1);t[o]=[...a].map(([l,i])=>({code:l,count:i})).sort((l,i)=>i.count-l.count||(l.code<i.code?-1:1))}let r=new Map;for(let o of s){if(o.severity==="notice")continue;let a=r.get(o.file)??{file:o.file,errors:0,warnings:0,first:""};o.severity==="error"?(a.errors===0&&(a.first=`${o.line}:${o.column} ${o.message}`),a.errors++):(a.errors===0&&a.warnings===0&&(a.first=`${o.line}:${o.column} ${o.message}`),a.warnings++),r.set(o.file,a)}let n=[...r.values()].sort((o,a)=>a.errors-o.errors||a.warnings-o.warnings||(o.file<a.file?-1:1)).slice(0,5);return{skills:e.length,suites:e.filter(o=>o.suite).length,runnableCases:e.reduce((o,a)=>o+(a.suite?.cases.length??0),0),triggerQueries:e.reduce((o,a)=>o+(a.suite?.trigger?a.suite.trigger.shouldFire.length+a.suite.trigger.shouldNotFire.length:0),0),partsLeftOut:e.reduce((o,a)=>o+new Set((a.suite?.partProblems??[]).map(yr)).size,0),byCode:t,fixFirst:n}}var yr=e=>`${e.part}:${e.caseId??e.diagnostic.file}`;function os(e){let s=(r,n)=>{let o=e.byCode[r];if(o.length===0)return[];let a=o.reduce((i,c)=>i+c.count,0),l=o.slice(0,6).map(i=>`${i.code} ${i.count}`);return[`  ${n} ${a}: ${l.join(", ")}${o.length>6?`, \u2026 (${o.length} kinds)`:""}`]},t=[`summary: ${e.skills} skill(s), ${e.suites} suite(s); run would evaluate ${e.runnableCases} case(s) and ${e.triggerQueries} trigger quer${e.triggerQueries===1?"y":"ies"}${e.partsLeftOut?`, leaving out ${e.partsLeftOut} broken or ungradable part(s) (an error of that part when a PR touches its skill)`:""}`,...s("error","errors"),...s("warning","warnings"),...s("notice","notices")];if(e.fixFirst.length>0){t.push("fix first:");for(let r of e.fixFirst)t.push(`  ${r.file}: ${[r.errors?`${r.errors} error(s)`:"",r.warnings?`${r.warnings} warning(s)`:""].filter(Boolean).join(", ")} \u2014 ${r.first}`)}return t}function ns(e,s){let t=s?Ke(e,s):void 0,r=s&&!t?Be(s):We({kind:"dir",dir:e},t,"the checkout");return{config:r.config,...r.file?{file:r.file}:{},warnings:r.diagnostics}}var he=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function is(e,s){let{values:t}=S(e,{options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return s.stdout(`${he}
`),y.pass;let r=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new k(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let n=[],o=t.profile??"claude-code",a=!1,l,i,c;try{let{config:m,warnings:g}=ns(r,t.config);n.push(...g),!t.profile&&m.profile&&(o=m.profile),l=m.skills?.globs,a=m.judge!==void 0,i=m.skills?.include,c=m.skills?.exclude}catch(m){if(!(m instanceof x)||m.diagnostics.length===0)throw m;n.push(...m.diagnostics)}t.glob?.length&&(l=t.glob);let p=L(r,{profile:o,globs:l,include:i,exclude:c,assertionTypes:j(F)});rt(n,p.diagnostics,Je(p.skills),lt(p.outsideGlobs,void 0),a?[]:at(p.skills));let d=n.filter(m=>m.severity==="error").length,u=n.filter(m=>m.severity==="warning").length,f=n.length-d-u,h=rs(p.skills,n);if(t.json){let m=p.skills.map(g=>({name:g.name,...g.namespace?{namespace:g.namespace}:{},layout:g.layout,path:g.path,suite:g.suite?.root??null,suiteFormats:g.suite?.formats??[],suiteFiles:g.suite?.sourceFiles??[],cases:g.suite?.cases.length??0,triggerQueries:(g.suite?.trigger?.shouldFire.length??0)+(g.suite?.trigger?.shouldNotFire.length??0)}));s.stdout(`${JSON.stringify({profile:o,listing:p.files.source,skills:m,outsideGlobs:p.outsideGlobs,diagnostics:n,errors:d,warnings:u,notices:f,summary:h},null,2)}
`)}else{for(let g of n)s.stdout(`${T(g)}
`);let m=p.skills.filter(g=>g.suite).length;p.skills.length>0&&s.stdout(`${os(h).join(`
`)}
`),s.stdout(`${p.skills.length} skill(s), ${m} suite(s) checked under the ${o} profile: ${d} error(s), ${u} warning(s)${f?`, ${f} notice(s)`:""}
`)}return p.skills.length===0?(t.json||s.stdout(p.outsideGlobs.length>0?`no skill within the configured globs; ${p.outsideGlobs.length} SKILL.md file(s) lie outside them
`:`no skill found in ${r}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read)
`),y.usage):d>0?y.usage:y.pass}var we={run:{run:zt,usage:fe},plan:{run:ss,usage:ge},validate:{run:is,usage:he},init:{run:Wt,usage:ce},merge:{run:Bt,usage:de},gate:{run:gt,usage:re},harvest:{run:Jt,usage:ae}};var as={stdout:e=>process.stdout.write(O(e)),stderr:e=>process.stderr.write(O(e))};var ls=`skillgate ${H} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  plan       say what \`run\` would run and spend (trials, cache hits, agent calls, USD), running nothing
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill
  harvest    run baseline agents on a skill's tasks and propose discriminators from what they got wrong

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function cs(e,s=as){let[t,...r]=e;if(!t||t==="help"||t==="--help"||t==="-h")return s.stdout(`${ls}
`),t?y.pass:y.usage;if(t==="--version"||t==="-v")return s.stdout(`${H}
`),y.pass;let n=we[t];if(!n){let o=Object.keys(we);return s.stderr(`skillgate: unknown command \`${t}\`${t.startsWith("-")?"":M(t,o)}

${ls}
`),y.usage}try{return await n.run(r,s)}catch(o){return kr(o,s,{name:t,usage:n.usage})}}function kr(e,s,t){let r=`skillgate ${t.name}:`;if(e instanceof k)return s.stderr(`${r} ${e.message}

${t.usage}
`),y.usage;if(e instanceof x){s.stderr(`${r} ${e.message}
`);for(let n of e.diagnostics)s.stderr(`${T(n)}
`);return y.usage}return s.stderr(`${r} error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&s.stderr(`${e?.stack??""}
`),y.error}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await cs(process.argv.slice(2));
