#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a as K,b as U,c as V,d as W,e as q,f as X,g as Q,h as z}from"./chunk-UOPP3MFP.js";import"./chunk-POHVBL2G.js";import{a as I,b as A,c as T,d as D,f as P,g as S,h as g,i as R}from"./chunk-DNDHAJA2.js";import{a as C}from"./chunk-KLCHFWYS.js";import{a as G,b as _,c as M,g as J}from"./chunk-TBF4PIX7.js";import"./chunk-QPZYNPHR.js";import{a as v,b as $}from"./chunk-7IRCYMAJ.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import{d as Y}from"./chunk-XE3NIDJX.js";import"./chunk-GOEBFV5Z.js";import{d as B,e as H}from"./chunk-F2QCOIDI.js";import"./chunk-NPDMPLWO.js";import{parseArgs as $e}from"node:util";var Z=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${B.join(", ")}`;function b(e,r){return e.stderr(`skillgate gate: ${r.split(`
`)[0]}
${Z}
`),2}function j(e,r,t){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>t?`--${r} must be an integer from 0 to ${t} (got '${e}')`:s}async function ee(e,r){let t;try{t=ye(e)}catch(f){return b(r,f.message)}let{values:s,positionals:n}=t;if(s.help)return r.stdout(`${Z}
`),0;let[o,i,...l]=n;if(!o||!i)return b(r,"expected a gate id and a module path");if(l.length)return b(r,`unexpected argument '${l[0]}'`);if(!H(o))return b(r,`unknown gate '${o}'`);let p;if(s.options!==void 0){try{p=JSON.parse(s.options)}catch(f){return b(r,`--options is not valid JSON: ${f.message}`)}if(p===null||typeof p!="object"||Array.isArray(p))return b(r,"--options must be a JSON object")}let h=j(s.seed,"seed",2**31-1),c=j(s.timeout,"timeout",36e5),a=j(s.memory,"memory",65536);for(let f of[h,c,a])if(typeof f=="string")return b(r,f);let u=await Y(o,i,{export:s.export,options:p,seed:h,timeoutMs:c,memoryMb:a});if(s.json)r.stdout(`${JSON.stringify(u,null,2)}
`);else{r.stdout(`${u.passed?"PASS":"FAIL"} ${u.gate} ${i} (seed ${u.seed})
`);for(let f of u.checks)r.stdout(`  ${f.passed?"\u2713":"\u2717"} ${f.id}: ${f.message}
`);u.passed||r.stdout(`replay: skillgate gate ${o} ${i} --seed ${u.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return u.passed?0:1}function ye(e){return $e({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as O,mkdirSync as be,readFileSync as ke,statSync as we,writeFileSync as ve}from"node:fs";import{basename as Ie,dirname as se,join as y,relative as E,resolve as oe}from"node:path";import{parseArgs as Se}from"node:util";var te=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,re=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function ie(e,r){let{values:t,positionals:s}=Se({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(t.help)return r.stdout(`${te}
`),g.pass;if(s.length!==1)throw new $(`init takes one skill
${te}`);let n=oe(t.repo??"."),o=Re(n,s[0]),i=y(o,"SKILL.md"),l=E(n,i).split("\\").join("/"),p=U(l,ke(i,"utf8"),"claude-code"),h=p.name??Ie(o),c=p.version??"1",a=y(o,"evals"),u={"meta.json":`${JSON.stringify({skillVersion:c,suiteVersion:c,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${h} suite. Add more files like this one in prompts/.
# A discriminator (id starting D:) traps the single most tempting wrong answer an agent gives without the skill:
# test for the absence of that answer, not for one exact right answer.
id: example
prompt: "TODO: a realistic task where an agent without the ${h} skill gives a confident wrong answer"
assertions:
  - id: D:avoids-tempting-wrong-answer
    type: not-contains
    value: "TODO: the wrong answer a naive agent gives"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({shouldFire:Array.from({length:10},(d,m)=>({prompt:`TODO: prompt ${m+1} that should activate ${h}`})),shouldNotFire:Array.from({length:10},(d,m)=>({prompt:`TODO: near-miss prompt ${m+1} that must not activate ${h}`}))},null,2)}
`},f=Object.keys(u).filter(d=>O(y(a,d)));if(f.length&&!t.force)throw new $(`${E(n,a)} already has ${f.join(", ")}; pass --force to overwrite`);for(let[d,m]of Object.entries(u))be(se(y(a,d)),{recursive:!0}),ve(y(a,d),m),r.stdout(`created ${E(n,y(a,d)).split("\\").join("/")}
`);return r.stdout(`Replace the TODOs, then run: skillgate validate --repo ${t.repo??"."}
`),g.pass}function Re(e,r){let t=oe(e,r);if(O(t)){let s=we(t).isDirectory()?t:se(t);if(O(y(s,"SKILL.md")))return s}for(let s of re){let n=y(e,s,r);if(O(y(n,"SKILL.md")))return n}throw new $(`no skill \`${r}\`: looked for ${r}/SKILL.md and ${re.map(s=>`${s}/${r}/SKILL.md`).join(", ")}`)}import{writeFile as x}from"node:fs/promises";import{parseArgs as Oe}from"node:util";var L=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,xe=512*1024;async function ne(e,r){let t;try{t=Ce(e)}catch(s){return r.stderr(`skillgate merge: ${s.message}
${L}
`),g.usage}if(t.values.help)return r.stdout(`${L}
`),0;if(t.positionals.length===0)return r.stderr(`skillgate merge: no report given
${L}
`),g.usage;try{let s=A(await T(t.positionals)),n=`${JSON.stringify(s,null,2)}
`,{values:o}=t;o.json?await x(o.json,n):r.stdout(n),o.junit&&await x(o.junit,I(s)),o.sarif&&await x(o.sarif,S(s)),o.markdown&&await x(o.markdown,P(s,{maxChars:xe,fullReportHint:o.json??"the JSON report",charts:!0}));for(let i of s.errors)r.stderr(`skillgate merge: ${i}
`);return r.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),R(s.verdict)}catch(s){return s instanceof $?(r.stderr(`${s.message}
`),g.usage):(r.stderr(`skillgate merge: ${s.stack??s}
`),g.error)}}function Ce(e){return Oe({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as Ne,writeFile as Fe}from"node:fs/promises";import{dirname as Ae}from"node:path";import{parseArgs as Te}from"node:util";var je=15,ae={pass:"PASS",fail:"FAIL",error:"ERROR"};function le(e,r){let t=Le(r.color),s=[],n=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${n(t.bold(`skillgate: ${ae[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${D(e)}, seed ${e.seed}]`),e.scope&&s.push(`  ${e.scope.message}`),e.base&&s.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}`)),s.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));for(let i of e.policy.roots)s.push(...F(i,i.blocking?t.red:t.dim,t));for(let i of e.errors)s.push(t.yellow(`  error: ${i}`));for(let i of e.skills)s.push("",...Ee(i,t,r));let o=e.diagnostics.filter(i=>i.severity==="error");if(o.length){s.push("",t.bold("Validation errors"));for(let i of o)s.push(`  ${i.file}:${i.line}:${i.column}: ${i.message}`)}return s.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function Ee(e,r,t){let s=[],n=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${n(ae[e.verdict].padEnd(5))} ${r.bold(e.name)} ${r.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let a=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${k(o.skill.discriminatorPassRate)}  baseline ${k(o.baseline.discriminatorPassRate)}  lift ${N(o.discriminatorLift)}`+(a?r.dim(`  (base: skill ${k(a.skill.discriminatorPassRate)}, lift ${N(a.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${k(o.skill.passRate)}  baseline ${k(o.baseline.passRate)}  lift ${N(o.lift)}`),o.styleGuideNotGuardrail&&s.push(r.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let i=e.trigger;if(i){let a=e.base?.trigger;s.push(`      trigger${i.proxy?` (${i.router} proxy)`:""}  precision ${k(i.precision)}  recall ${k(i.recall)}  F1 ${i.f1.toFixed(2)}`+(a?r.dim(`  (base: precision ${w(a.precision.rate)}, recall ${w(a.recall.rate)})`):""));for(let u of i.warnings)s.push(r.yellow(`      ${u}`))}let l=new Map;for(let a of e.gates.filter(u=>!u.passed)){let u=`gate ${a.gate} failed on ${a.module} (${a.caseId}/${a.assertionId})`;l.set(u,(l.get(u)??0)+1)}for(let[a,u]of[...l].slice(0,5))s.push(`      ${a}${u>1?` in ${u} trials`:""}`);let p=e.roots.filter(a=>a.blocking),h=e.roots.filter(a=>!a.blocking),c=t.verbose?Number.POSITIVE_INFINITY:je;for(let a of p.slice(0,c))s.push(...F(a,r.red,r));if(p.length>c&&s.push(r.red(`      \u2026 ${p.length-c} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let a of h.slice(0,c))s.push(...F(a,r.dim,r));h.length>c&&s.push(r.dim(`      \u2026 ${h.length-c} more root(s)`))}for(let a of e.reasons.slice(0,6))s.push(r.dim(`      \xB7 ${a}`));return s}function F(e,r,t){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",n=[r(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&n.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),n}function k(e){return`${w(e.rate)} [${w(e.low)}\u2013${w(e.high)}] (${e.passed}/${e.total})`}function w(e){return`${Math.round(e*100)}%`}function N(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Le(e){let r=t=>s=>e?`\x1B[${t}m${s}\x1B[0m`:s;return{red:r(31),green:r(32),yellow:r(33),dim:r(2),bold:r(1)}}function de(e={}){let r=e.stream??process.stderr,t=!!r.isTTY,s=!1,n=0,o=()=>{t&&s&&(r.write("\r\x1B[K"),s=!1)},i=l=>{o(),r.write(`${l}
`)};return{info:l=>!e.quiet&&i(l),warn:l=>i(`warning: ${l}`),error:l=>i(`error: ${l}`),debug:l=>e.verbose&&i(l),group:async(l,p)=>p(),progress(l){if(e.quiet)return;let p=`trials ${l.done}/${l.total}  errors ${l.errors}  cache hits ${l.cacheHits}  cost $${l.costUsd.toFixed(4)}`;t?(r.write(`\r\x1B[K${p}`),s=l.done<l.total,s||r.write(`
`)):(l.done===l.total||Date.now()-n>5e3)&&(n=Date.now(),r.write(`${p}
`))}}}var De=`Usage: skillgate run [options]

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

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ce(e,r){let{values:t}=Te({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},"base-report":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${De}
`),0;let s=de({quiet:t.quiet,verbose:t.verbose}),n=await J({repo:t.repo,base:t.base,baseDir:t["base-dir"],baseReport:t["base-report"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},s),o=await z(n),i=async(p,h)=>{p&&(await Ne(Ae(p),{recursive:!0}),await Fe(p,h))};await i(n.outputs.json,`${JSON.stringify(o,null,2)}
`),await i(n.outputs.junit,I(o)),await i(n.outputs.sarif,S(o));let l=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return r.stdout(le(o,{color:l,verbose:t.verbose})),R(o.verdict)}import{parseArgs as Pe}from"node:util";function ue(e,r){let t=r?M(e,r):void 0,s=r&&!t?_(r):G({kind:"dir",dir:e},t,"the checkout");return{config:s.config,...s.file?{file:s.file}:{}}}var Ge=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function pe(e,r){let{values:t}=Pe({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${Ge}
`),g.pass;let s=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new $(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let n=[],o=t.profile??"claude-code",i=!1,l,p,h;try{let{config:d}=ue(s,t.config);!t.profile&&d.profile&&(o=d.profile),l=d.skills?.globs,i=d.judge!==void 0,p=d.skills?.include,h=d.skills?.exclude}catch(d){if(!(d instanceof $)||d.diagnostics.length===0)throw d;n.push(...d.diagnostics)}t.glob?.length&&(l=t.glob);let c=V(s,{profile:o,globs:l,include:p,exclude:h,assertionTypes:K(X)});n.push(...c.diagnostics,...Q(c.skills),...q(c.outsideGlobs,void 0),...i?[]:W(c.skills,"warning"));let a=n.filter(d=>d.severity==="error").length,u=n.filter(d=>d.severity==="warning").length,f=n.length-a-u;if(t.json){let d=c.skills.map(m=>({name:m.name,...m.namespace?{namespace:m.namespace}:{},layout:m.layout,path:m.path,suite:m.suite?.root??null,suiteFormats:m.suite?.formats??[],cases:m.suite?.cases.length??0,triggerQueries:(m.suite?.trigger?.shouldFire.length??0)+(m.suite?.trigger?.shouldNotFire.length??0)}));r.stdout(`${JSON.stringify({profile:o,listing:c.files.source,skills:d,outsideGlobs:c.outsideGlobs,diagnostics:n,errors:a,warnings:u,notices:f},null,2)}
`)}else{for(let m of n)r.stdout(`${v(m)}
`);let d=c.skills.filter(m=>m.suite).length;r.stdout(`${c.skills.length} skill(s), ${d} suite(s) checked under the ${o} profile: ${a} error(s), ${u} warning(s)${f?`, ${f} notice(s)`:""}
`)}return c.skills.length===0?(t.json||r.stdout(c.outsideGlobs.length>0?`no skill within the configured globs; ${c.outsideGlobs.length} SKILL.md file(s) lie outside them
`:`no skill found in ${s}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read)
`),g.usage):a>0?g.usage:g.pass}var ge={run:ce,validate:pe,init:ie,merge:ne,gate:ee};var me={stdout:e=>process.stdout.write(e),stderr:e=>process.stderr.write(e)};var fe=`skillgate ${C} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function he(e,r=me){let[t,...s]=e;if(!t||t==="help"||t==="--help"||t==="-h")return r.stdout(`${fe}
`),t?g.pass:g.usage;if(t==="--version"||t==="-v")return r.stdout(`${C}
`),g.pass;let n=ge[t];if(!n)return r.stderr(`skillgate: unknown command \`${t}\`

${fe}
`),g.usage;try{return await n(s,r)}catch(o){return _e(o,r)}}function _e(e,r){if(e instanceof $){r.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)r.stderr(`${v(s)}
`);return g.usage}let t=e.code;return typeof t=="string"&&t.startsWith("ERR_PARSE_ARGS")?(r.stderr(`skillgate: ${e.message}
`),g.usage):(r.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&r.stderr(`${e?.stack??""}
`),g.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await he(process.argv.slice(2));
