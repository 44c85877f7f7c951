#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a as K,b as q,c as V,d as W,e as Y,f as Q}from"./chunk-DIXSUJW6.js";import"./chunk-7DPULHG4.js";import{a as S,b as T,c as D,d as P,f as _,g as O,h as p,i as R}from"./chunk-7FYHWHTM.js";import{d as E}from"./chunk-W6UDWYTV.js";import{a as M,b as G,c as J,g as U}from"./chunk-O5JTLWID.js";import"./chunk-HQLRI24N.js";import{a as I,b as f}from"./chunk-7IRCYMAJ.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import{d as H}from"./chunk-4YACVZ3F.js";import{a as X,b as B}from"./chunk-4EIYINA6.js";import"./chunk-S5VD56SW.js";import{f as y}from"./chunk-3FARLHVF.js";import"./chunk-NPDMPLWO.js";import{parseArgs as he}from"node:util";var z=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${X.join(", ")}`;function b(e,r){return e.stderr(`skillgate gate: ${r.split(`
`)[0]}
${z}
`),2}function j(e,r,t){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>t?`--${r} must be an integer from 0 to ${t} (got '${e}')`:s}async function Z(e,r){let t;try{t=$e(e)}catch(g){return b(r,g.message)}let{values:s,positionals:a}=t;if(s.help)return r.stdout(`${z}
`),0;let[o,d,...i]=a;if(!o||!d)return b(r,"expected a gate id and a module path");if(i.length)return b(r,`unexpected argument '${i[0]}'`);if(!B(o))return b(r,`unknown gate '${o}'`);let c;if(s.options!==void 0){try{c=JSON.parse(s.options)}catch(g){return b(r,`--options is not valid JSON: ${g.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))return b(r,"--options must be a JSON object")}let u=j(s.seed,"seed",2**31-1),m=j(s.timeout,"timeout",36e5),l=j(s.memory,"memory",65536);for(let g of[u,m,l])if(typeof g=="string")return b(r,g);let n=await H(o,d,{export:s.export,options:c,seed:u,timeoutMs:m,memoryMb:l});if(s.json)r.stdout(`${JSON.stringify(n,null,2)}
`);else{r.stdout(`${n.passed?"PASS":"FAIL"} ${n.gate} ${d} (seed ${n.seed})
`);for(let g of n.checks)r.stdout(`  ${g.passed?"\u2713":"\u2717"} ${g.id}: ${g.message}
`);n.passed||r.stdout(`replay: skillgate gate ${o} ${d} --seed ${n.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return n.passed?0:1}function $e(e){return he({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as x,mkdirSync as ye,readFileSync as be,statSync as ke,writeFileSync as we}from"node:fs";import{basename as ve,dirname as re,join as h,relative as L,resolve as se}from"node:path";import{parseArgs as Ie}from"node:util";var ee=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,te=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function oe(e,r){let{values:t,positionals:s}=Ie({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(t.help)return r.stdout(`${ee}
`),p.pass;if(s.length!==1)throw new f(`init takes one skill
${ee}`);let a=se(t.repo??"."),o=Se(a,s[0]),d=h(o,"SKILL.md"),i=L(a,d).split("\\").join("/"),c=q(i,be(d,"utf8"),"claude-code"),u=c.name??ve(o),m=c.version??"1",l=h(o,"evals"),n={"meta.json":`${JSON.stringify({skillVersion:m,suiteVersion:m,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${u} suite. Add more files like this one in prompts/.
# A discriminator (id starting D:) traps the single most tempting wrong answer an agent gives without the skill:
# test for the absence of that answer, not for one exact right answer.
id: example
prompt: "TODO: a realistic task where an agent without the ${u} skill gives a confident wrong answer"
assertions:
  - id: D:avoids-tempting-wrong-answer
    type: not-contains
    value: "TODO: the wrong answer a naive agent gives"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({shouldFire:Array.from({length:10},($,w)=>({prompt:`TODO: prompt ${w+1} that should activate ${u}`})),shouldNotFire:Array.from({length:10},($,w)=>({prompt:`TODO: near-miss prompt ${w+1} that must not activate ${u}`}))},null,2)}
`},g=Object.keys(n).filter($=>x(h(l,$)));if(g.length&&!t.force)throw new f(`${L(a,l)} already has ${g.join(", ")}; pass --force to overwrite`);for(let[$,w]of Object.entries(n))ye(re(h(l,$)),{recursive:!0}),we(h(l,$),w),r.stdout(`created ${L(a,h(l,$)).split("\\").join("/")}
`);return r.stdout(`Replace the TODOs, then run: skillgate validate --repo ${t.repo??"."}
`),p.pass}function Se(e,r){let t=se(e,r);if(x(t)){let s=ke(t).isDirectory()?t:re(t);if(x(h(s,"SKILL.md")))return s}for(let s of te){let a=h(e,s,r);if(x(h(a,"SKILL.md")))return a}throw new f(`no skill \`${r}\`: looked for ${r}/SKILL.md and ${te.map(s=>`${s}/${r}/SKILL.md`).join(", ")}`)}import{writeFile as C}from"node:fs/promises";import{parseArgs as Oe}from"node:util";var N=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,Re=512*1024;async function ie(e,r){let t;try{t=xe(e)}catch(s){return r.stderr(`skillgate merge: ${s.message}
${N}
`),p.usage}if(t.values.help)return r.stdout(`${N}
`),0;if(t.positionals.length===0)return r.stderr(`skillgate merge: no report given
${N}
`),p.usage;try{let s=T(await D(t.positionals)),a=`${JSON.stringify(s,null,2)}
`,{values:o}=t;o.json?await C(o.json,a):r.stdout(a),o.junit&&await C(o.junit,S(s)),o.sarif&&await C(o.sarif,O(s)),o.markdown&&await C(o.markdown,_(s,{maxChars:Re,fullReportHint:o.json??"the JSON report",charts:!0}));for(let d of s.errors)r.stderr(`skillgate merge: ${d}
`);return r.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),R(s.verdict)}catch(s){return s instanceof f?(r.stderr(`${s.message}
`),p.usage):(r.stderr(`skillgate merge: ${s.stack??s}
`),p.error)}}function xe(e){return Oe({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as Le,writeFile as Ne}from"node:fs/promises";import{dirname as Ae}from"node:path";import{parseArgs as Fe}from"node:util";var Ce=15,ne={pass:"PASS",fail:"FAIL",error:"ERROR"};function ae(e,r){let t=je(r.color),s=[],a=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${a(t.bold(`skillgate: ${ne[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${P(e)}, seed ${e.seed}]`),e.scope&&s.push(`  ${e.scope.message}`),e.base&&s.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}`)),s.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));let o=e.isolation;o&&o.level===o.required?s.push(t.dim(`  isolation: ${o.level}`)):o&&s.push(t.yellow(t.bold(`  WARNING isolation: ${o.level}, weaker than ${o.required}${o.weakerAccepted==="config"?" (accepted by the config's isolation.allowWeaker)":""}: ${o.reason}`)));for(let i of e.policy.roots)s.push(...F(i,i.blocking?t.red:t.dim,t));for(let i of e.errors)s.push(t.yellow(`  error: ${i}`));for(let i of e.skills)s.push("",...Ee(i,t,r));let d=e.diagnostics.filter(i=>i.severity==="error");if(d.length){s.push("",t.bold("Validation errors"));for(let i of d)s.push(`  ${i.file}:${i.line}:${i.column}: ${i.message}`)}return s.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function Ee(e,r,t){let s=[],a=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${a(ne[e.verdict].padEnd(5))} ${r.bold(e.name)} ${r.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let l=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${k(o.skill.discriminatorPassRate)}  baseline ${k(o.baseline.discriminatorPassRate)}  lift ${A(o.discriminatorLift)}`+(l?r.dim(`  (base: skill ${k(l.skill.discriminatorPassRate)}, lift ${A(l.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${k(o.skill.passRate)}  baseline ${k(o.baseline.passRate)}  lift ${A(o.lift)}`),o.styleGuideNotGuardrail&&s.push(r.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let d=e.trigger;if(d){let l=e.base?.trigger;s.push(`      trigger${d.proxy?` (${d.router} proxy)`:""}  precision ${k(d.precision)}  recall ${k(d.recall)}  F1 ${d.f1.toFixed(2)}`+(l?r.dim(`  (base: precision ${v(l.precision.rate)}, recall ${v(l.recall.rate)})`):""));for(let n of d.warnings)s.push(r.yellow(`      ${n}`))}let i=new Map;for(let l of e.gates.filter(n=>!n.passed)){let n=`gate ${l.gate} failed on ${l.module} (${l.caseId}/${l.assertionId})`;i.set(n,(i.get(n)??0)+1)}for(let[l,n]of[...i].slice(0,5))s.push(`      ${l}${n>1?` in ${n} trials`:""}`);let c=e.roots.filter(l=>l.blocking),u=e.roots.filter(l=>!l.blocking),m=t.verbose?Number.POSITIVE_INFINITY:Ce;for(let l of c.slice(0,m))s.push(...F(l,r.red,r));if(c.length>m&&s.push(r.red(`      \u2026 ${c.length-m} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let l of u.slice(0,m))s.push(...F(l,r.dim,r));u.length>m&&s.push(r.dim(`      \u2026 ${u.length-m} more root(s)`))}for(let l of e.reasons.slice(0,6))s.push(r.dim(`      \xB7 ${l}`));return s}function F(e,r,t){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",a=[r(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&a.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),a}function k(e){return`${v(e.rate)} [${v(e.low)}\u2013${v(e.high)}] (${e.passed}/${e.total})`}function v(e){return`${Math.round(e*100)}%`}function A(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function je(e){let r=t=>s=>e?`\x1B[${t}m${s}\x1B[0m`:s;return{red:r(31),green:r(32),yellow:r(33),dim:r(2),bold:r(1)}}function le(e={}){let r=e.stream??process.stderr,t=!!r.isTTY,s=!1,a=0,o=()=>{t&&s&&(r.write("\r\x1B[K"),s=!1)},d=i=>{o(),r.write(`${y(i)}
`)};return{info:i=>!e.quiet&&d(i),warn:i=>d(`warning: ${i}`),error:i=>d(`error: ${i}`),debug:i=>e.verbose&&d(i),group:async(i,c)=>c(),progress(i){if(e.quiet)return;let c=`trials ${i.done}/${i.total}  errors ${i.errors}  cache hits ${i.cacheHits}  cost $${i.costUsd.toFixed(4)}`;t?(r.write(`\r\x1B[K${c}`),s=i.done<i.total,s||r.write(`
`)):(i.done===i.total||Date.now()-a>5e3)&&(a=Date.now(),r.write(`${c}
`))}}}var Te=`Usage: skillgate run [options]

Runs the batteries of the skills a change touches (or every skill), compares with the base, prints the verdict.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref (checked out in a temporary worktree)
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter (replay, claude-code, codex, command, openai, anthropic, lexical)
  --trials N          trials per case and mode (default: meta.json, else 3)
  --shard I/N         evaluate only shard I of N (deterministic, balanced by expected cost)
  --seed N            seed of every randomised step (default 42); reported, replayable
  --no-cache          do not read or write the trial cache
  --config FILE       configuration file (default .skillgate.yml)
  --json FILE         write the JSON report
  --junit FILE        write JUnit XML
  --sarif FILE        write SARIF (new roots as results with locations)
  --record DIR        write replay recordings of every trial run to DIR
  --allow-weakening   accept a weakened suite or policy: you, the operator, approve it (reported)
  --quiet, --verbose

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function de(e,r){let{values:t}=Fe({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},"base-report":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${Te}
`),0;let s=le({quiet:t.quiet,verbose:t.verbose}),a=await U({repo:t.repo,base:t.base,baseDir:t["base-dir"],baseReport:t["base-report"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},s),o=await Q(a),d=async(c,u)=>{c&&(await Le(Ae(c),{recursive:!0}),await Ne(c,y(u)))};await d(a.outputs.json,`${JSON.stringify(o,null,2)}
`),await d(a.outputs.junit,S(o)),await d(a.outputs.sarif,O(o));let i=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return r.stdout(ae(o,{color:i,verbose:t.verbose})),R(o.verdict)}import{parseArgs as De}from"node:util";function ce(e,r){let t=r?J(e,r):void 0,s=r&&!t?G(r):M({kind:"dir",dir:e},t,"the checkout");return{config:s.config,...s.file?{file:s.file}:{}}}var Pe=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function pe(e,r){let{values:t}=De({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${Pe}
`),p.pass;let s=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new f(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let a=[],o=t.profile??"claude-code",d,i,c;try{let{config:n}=ce(s,t.config);!t.profile&&n.profile&&(o=n.profile),d=n.skills?.globs,i=n.skills?.include,c=n.skills?.exclude}catch(n){if(!(n instanceof f)||n.diagnostics.length===0)throw n;a.push(...n.diagnostics)}t.glob?.length&&(d=t.glob);let u=V(s,{profile:o,globs:d,include:i,exclude:c,assertionTypes:K(W)});a.push(...u.diagnostics,...Y(u.skills));let m=a.filter(n=>n.severity==="error").length,l=a.length-m;if(t.json)r.stdout(`${JSON.stringify({profile:o,skills:u.skills.map(n=>({name:n.name,path:n.path,suite:n.suite?.root??null,cases:n.suite?.cases.length??0,triggerQueries:(n.suite?.trigger?.shouldFire.length??0)+(n.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:a,errors:m,warnings:l},null,2)}
`);else{for(let g of a)r.stdout(`${I(g)}
`);let n=u.skills.filter(g=>g.suite).length;r.stdout(`${u.skills.length} skill(s), ${n} suite(s) checked under the ${o} profile: ${m} error(s), ${l} warning(s)
`)}return m>0?p.usage:p.pass}var ue={run:de,validate:pe,init:oe,merge:ie,gate:Z};var me={stdout:e=>process.stdout.write(y(e)),stderr:e=>process.stderr.write(y(e))};var ge=`skillgate ${E} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function fe(e,r=me){let[t,...s]=e;if(!t||t==="help"||t==="--help"||t==="-h")return r.stdout(`${ge}
`),t?p.pass:p.usage;if(t==="--version"||t==="-v")return r.stdout(`${E}
`),p.pass;let a=ue[t];if(!a)return r.stderr(`skillgate: unknown command \`${t}\`

${ge}
`),p.usage;try{return await a(s,r)}catch(o){return _e(o,r)}}function _e(e,r){if(e instanceof f){r.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)r.stderr(`${I(s)}
`);return p.usage}let t=e.code;return typeof t=="string"&&t.startsWith("ERR_PARSE_ARGS")?(r.stderr(`skillgate: ${e.message}
`),p.usage):(r.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&r.stderr(`${e?.stack??""}
`),p.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await fe(process.argv.slice(2));
