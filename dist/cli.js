#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a as O,b as W,c as x,d as q,e as X,f as C,g as Q,h as z}from"./chunk-INRSHKTS.js";import"./chunk-POHVBL2G.js";import{a as I,b as D,c as G,d as _,f as M,g as S,h as m,i as R}from"./chunk-DNDHAJA2.js";import{a as L}from"./chunk-KLCHFWYS.js";import{a as J,b as K,c as U,g as V}from"./chunk-TBF4PIX7.js";import"./chunk-QPZYNPHR.js";import{a as v,b as $}from"./chunk-7IRCYMAJ.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import{d as Y}from"./chunk-XE3NIDJX.js";import"./chunk-GOEBFV5Z.js";import{d as B,e as H}from"./chunk-F2QCOIDI.js";import"./chunk-NPDMPLWO.js";import{parseArgs as he}from"node:util";var Z=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${B.join(", ")}`;function b(e,t){return e.stderr(`skillgate gate: ${t.split(`
`)[0]}
${Z}
`),2}function F(e,t,r){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>r?`--${t} must be an integer from 0 to ${r} (got '${e}')`:s}async function ee(e,t){let r;try{r=$e(e)}catch(f){return b(t,f.message)}let{values:s,positionals:i}=r;if(s.help)return t.stdout(`${Z}
`),0;let[o,n,...l]=i;if(!o||!n)return b(t,"expected a gate id and a module path");if(l.length)return b(t,`unexpected argument '${l[0]}'`);if(!H(o))return b(t,`unknown gate '${o}'`);let p;if(s.options!==void 0){try{p=JSON.parse(s.options)}catch(f){return b(t,`--options is not valid JSON: ${f.message}`)}if(p===null||typeof p!="object"||Array.isArray(p))return b(t,"--options must be a JSON object")}let h=F(s.seed,"seed",2**31-1),c=F(s.timeout,"timeout",36e5),a=F(s.memory,"memory",65536);for(let f of[h,c,a])if(typeof f=="string")return b(t,f);let u=await Y(o,n,{export:s.export,options:p,seed:h,timeoutMs:c,memoryMb:a});if(s.json)t.stdout(`${JSON.stringify(u,null,2)}
`);else{t.stdout(`${u.passed?"PASS":"FAIL"} ${u.gate} ${n} (seed ${u.seed})
`);for(let f of u.checks)t.stdout(`  ${f.passed?"\u2713":"\u2717"} ${f.id}: ${f.message}
`);u.passed||t.stdout(`replay: skillgate gate ${o} ${n} --seed ${u.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return u.passed?0:1}function $e(e){return he({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as j,mkdirSync as ye,readFileSync as be,statSync as ke,writeFileSync as we}from"node:fs";import{basename as ve,dirname as re,join as y,relative as N,resolve as se}from"node:path";import{parseArgs as Ie}from"node:util";var te=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,Se=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function oe(e,t){let{values:r,positionals:s}=Ie({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(r.help)return t.stdout(`${te}
`),m.pass;if(s.length!==1)throw new $(`init takes one skill
${te}`);let i=se(r.repo??"."),o=Re(i,s[0]),n=y(o,"SKILL.md"),l=N(i,n).split("\\").join("/"),p=W(l,be(n,"utf8"),"claude-code"),h=p.name??ve(o),c=p.version??"1",a=y(o,"evals"),u={"meta.json":`${JSON.stringify({skillVersion:c,suiteVersion:c,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
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
`,"trigger-eval.json":`${JSON.stringify({shouldFire:Array.from({length:10},(d,g)=>({prompt:`TODO: prompt ${g+1} that should activate ${h}`})),shouldNotFire:Array.from({length:10},(d,g)=>({prompt:`TODO: near-miss prompt ${g+1} that must not activate ${h}`}))},null,2)}
`},f=Object.keys(u).filter(d=>j(y(a,d)));if(f.length&&!r.force)throw new $(`${N(i,a)} already has ${f.join(", ")}; pass --force to overwrite`);for(let[d,g]of Object.entries(u))ye(re(y(a,d)),{recursive:!0}),we(y(a,d),g),t.stdout(`created ${N(i,y(a,d)).split("\\").join("/")}
`);return t.stdout(`Replace the TODOs, then run: skillgate validate --repo ${r.repo??"."}
`),m.pass}function Re(e,t){let r=se(e,t);if(j(r)){let i=ke(r).isDirectory()?r:re(r);if(j(y(i,"SKILL.md")))return i}for(let i of Se){let o=y(e,i,t);if(j(y(o,"SKILL.md")))return o}let s=x(e,{profile:"claude-code",assertionTypes:O(C)}).skills.filter(i=>i.name===t||i.name.endsWith(`:${t}`));if(s.length===1)return y(e,s[0].dir);throw new $(s.length>1?`\`${t}\` names ${s.length} skills (${s.map(i=>i.name).join(", ")}): give the full name or the folder`:`no skill \`${t}\`: no SKILL.md at ${t}/ and no skill of that name in the repository`)}import{writeFile as E}from"node:fs/promises";import{parseArgs as Oe}from"node:util";var A=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,xe=512*1024;async function ie(e,t){let r;try{r=Ce(e)}catch(s){return t.stderr(`skillgate merge: ${s.message}
${A}
`),m.usage}if(r.values.help)return t.stdout(`${A}
`),0;if(r.positionals.length===0)return t.stderr(`skillgate merge: no report given
${A}
`),m.usage;try{let s=D(await G(r.positionals)),i=`${JSON.stringify(s,null,2)}
`,{values:o}=r;o.json?await E(o.json,i):t.stdout(i),o.junit&&await E(o.junit,I(s)),o.sarif&&await E(o.sarif,S(s)),o.markdown&&await E(o.markdown,M(s,{maxChars:xe,fullReportHint:o.json??"the JSON report",charts:!0}));for(let n of s.errors)t.stderr(`skillgate merge: ${n}
`);return t.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),R(s.verdict)}catch(s){return s instanceof $?(t.stderr(`${s.message}
`),m.usage):(t.stderr(`skillgate merge: ${s.stack??s}
`),m.error)}}function Ce(e){return Oe({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as Fe,writeFile as Ne}from"node:fs/promises";import{dirname as Ae}from"node:path";import{parseArgs as Te}from"node:util";var je=15,ne={pass:"PASS",fail:"FAIL",error:"ERROR"};function ae(e,t){let r=Le(t.color),s=[],i=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${i(r.bold(`skillgate: ${ne[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${_(e)}, seed ${e.seed}]`),e.scope&&s.push(`  ${e.scope.message}`),e.base&&s.push(r.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}`)),s.push(r.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));for(let n of e.policy.roots)s.push(...P(n,n.blocking?r.red:r.dim,r));for(let n of e.errors)s.push(r.yellow(`  error: ${n}`));for(let n of e.skills)s.push("",...Ee(n,r,t));let o=e.diagnostics.filter(n=>n.severity==="error");if(o.length){s.push("",r.bold("Validation errors"));for(let n of o)s.push(`  ${n.file}:${n.line}:${n.column}: ${n.message}`)}return s.push("",r.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function Ee(e,t,r){let s=[],i=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${i(ne[e.verdict].padEnd(5))} ${t.bold(e.name)} ${t.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let a=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${k(o.skill.discriminatorPassRate)}  baseline ${k(o.baseline.discriminatorPassRate)}  lift ${T(o.discriminatorLift)}`+(a?t.dim(`  (base: skill ${k(a.skill.discriminatorPassRate)}, lift ${T(a.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${k(o.skill.passRate)}  baseline ${k(o.baseline.passRate)}  lift ${T(o.lift)}`),o.styleGuideNotGuardrail&&s.push(t.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let n=e.trigger;if(n){let a=e.base?.trigger;s.push(`      trigger${n.proxy?` (${n.router} proxy)`:""}  precision ${k(n.precision)}  recall ${k(n.recall)}  F1 ${n.f1.toFixed(2)}`+(a?t.dim(`  (base: precision ${w(a.precision.rate)}, recall ${w(a.recall.rate)})`):""));for(let u of n.warnings)s.push(t.yellow(`      ${u}`))}let l=new Map;for(let a of e.gates.filter(u=>!u.passed)){let u=`gate ${a.gate} failed on ${a.module} (${a.caseId}/${a.assertionId})`;l.set(u,(l.get(u)??0)+1)}for(let[a,u]of[...l].slice(0,5))s.push(`      ${a}${u>1?` in ${u} trials`:""}`);let p=e.roots.filter(a=>a.blocking),h=e.roots.filter(a=>!a.blocking),c=r.verbose?Number.POSITIVE_INFINITY:je;for(let a of p.slice(0,c))s.push(...P(a,t.red,t));if(p.length>c&&s.push(t.red(`      \u2026 ${p.length-c} more blocking root(s) (--verbose or the JSON report lists all)`)),r.verbose||e.verdict!=="pass"){for(let a of h.slice(0,c))s.push(...P(a,t.dim,t));h.length>c&&s.push(t.dim(`      \u2026 ${h.length-c} more root(s)`))}for(let a of e.reasons.slice(0,6))s.push(t.dim(`      \xB7 ${a}`));return s}function P(e,t,r){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",i=[t(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+r.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&i.push(r.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),i}function k(e){return`${w(e.rate)} [${w(e.low)}\u2013${w(e.high)}] (${e.passed}/${e.total})`}function w(e){return`${Math.round(e*100)}%`}function T(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Le(e){let t=r=>s=>e?`\x1B[${r}m${s}\x1B[0m`:s;return{red:t(31),green:t(32),yellow:t(33),dim:t(2),bold:t(1)}}function le(e={}){let t=e.stream??process.stderr,r=!!t.isTTY,s=!1,i=0,o=()=>{r&&s&&(t.write("\r\x1B[K"),s=!1)},n=l=>{o(),t.write(`${l}
`)};return{info:l=>!e.quiet&&n(l),warn:l=>n(`warning: ${l}`),error:l=>n(`error: ${l}`),debug:l=>e.verbose&&n(l),group:async(l,p)=>p(),progress(l){if(e.quiet)return;let p=`trials ${l.done}/${l.total}  errors ${l.errors}  cache hits ${l.cacheHits}  cost $${l.costUsd.toFixed(4)}`;r?(t.write(`\r\x1B[K${p}`),s=l.done<l.total,s||t.write(`
`)):(l.done===l.total||Date.now()-i>5e3)&&(i=Date.now(),t.write(`${p}
`))}}}var Pe=`Usage: skillgate run [options]

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
  --json FILE         write the JSON report (and skill-creator exports to FILE's name + .skill-creator/)
  --junit FILE        write JUnit XML
  --sarif FILE        write SARIF (new roots as results with locations)
  --record DIR        write replay recordings of every trial run to DIR
  --allow-weakening   accept a weakened suite or policy: you, the operator, approve it (reported)
  --quiet, --verbose

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function de(e,t){let{values:r}=Te({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},"base-report":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(r.help)return t.stdout(`${Pe}
`),0;let s=le({quiet:r.quiet,verbose:r.verbose}),i=await V({repo:r.repo,base:r.base,baseDir:r["base-dir"],baseReport:r["base-report"],skills:r.skills,agent:r.agent,trials:r.trials,shard:r.shard,seed:r.seed,noCache:r["no-cache"],config:r.config,json:r.json,junit:r.junit,sarif:r.sarif,record:r.record,...r["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},s),o=await z(i),n=async(p,h)=>{p&&(await Fe(Ae(p),{recursive:!0}),await Ne(p,h))};await n(i.outputs.json,`${JSON.stringify(o,null,2)}
`),await n(i.outputs.junit,I(o)),await n(i.outputs.sarif,S(o));let l=!r["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return t.stdout(ae(o,{color:l,verbose:r.verbose})),R(o.verdict)}import{parseArgs as De}from"node:util";function ce(e,t){let r=t?U(e,t):void 0,s=t&&!r?K(t):J({kind:"dir",dir:e},r,"the checkout");return{config:s.config,...s.file?{file:s.file}:{}}}var Ge=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function ue(e,t){let{values:r}=De({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(r.help)return t.stdout(`${Ge}
`),m.pass;let s=r.repo??".";if(r.profile!==void 0&&r.profile!=="strict"&&r.profile!=="claude-code")throw new $(`--profile must be strict or claude-code (got \`${r.profile}\`)`);let i=[],o=r.profile??"claude-code",n=!1,l,p,h;try{let{config:d}=ce(s,r.config);!r.profile&&d.profile&&(o=d.profile),l=d.skills?.globs,n=d.judge!==void 0,p=d.skills?.include,h=d.skills?.exclude}catch(d){if(!(d instanceof $)||d.diagnostics.length===0)throw d;i.push(...d.diagnostics)}r.glob?.length&&(l=r.glob);let c=x(s,{profile:o,globs:l,include:p,exclude:h,assertionTypes:O(C)});i.push(...c.diagnostics,...Q(c.skills),...X(c.outsideGlobs,void 0),...n?[]:q(c.skills,"warning"));let a=i.filter(d=>d.severity==="error").length,u=i.filter(d=>d.severity==="warning").length,f=i.length-a-u;if(r.json){let d=c.skills.map(g=>({name:g.name,...g.namespace?{namespace:g.namespace}:{},layout:g.layout,path:g.path,suite:g.suite?.root??null,suiteFormats:g.suite?.formats??[],cases:g.suite?.cases.length??0,triggerQueries:(g.suite?.trigger?.shouldFire.length??0)+(g.suite?.trigger?.shouldNotFire.length??0)}));t.stdout(`${JSON.stringify({profile:o,listing:c.files.source,skills:d,outsideGlobs:c.outsideGlobs,diagnostics:i,errors:a,warnings:u,notices:f},null,2)}
`)}else{for(let g of i)t.stdout(`${v(g)}
`);let d=c.skills.filter(g=>g.suite).length;t.stdout(`${c.skills.length} skill(s), ${d} suite(s) checked under the ${o} profile: ${a} error(s), ${u} warning(s)${f?`, ${f} notice(s)`:""}
`)}return c.skills.length===0?(r.json||t.stdout(c.outsideGlobs.length>0?`no skill within the configured globs; ${c.outsideGlobs.length} SKILL.md file(s) lie outside them
`:`no skill found in ${s}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read)
`),m.usage):a>0?m.usage:m.pass}var pe={run:de,validate:ue,init:oe,merge:ie,gate:ee};var me={stdout:e=>process.stdout.write(e),stderr:e=>process.stderr.write(e)};var ge=`skillgate ${L} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function fe(e,t=me){let[r,...s]=e;if(!r||r==="help"||r==="--help"||r==="-h")return t.stdout(`${ge}
`),r?m.pass:m.usage;if(r==="--version"||r==="-v")return t.stdout(`${L}
`),m.pass;let i=pe[r];if(!i)return t.stderr(`skillgate: unknown command \`${r}\`

${ge}
`),m.usage;try{return await i(s,t)}catch(o){return _e(o,t)}}function _e(e,t){if(e instanceof $){t.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)t.stderr(`${v(s)}
`);return m.usage}let r=e.code;return typeof r=="string"&&r.startsWith("ERR_PARSE_ARGS")?(t.stderr(`skillgate: ${e.message}
`),m.usage):(t.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&t.stderr(`${e?.stack??""}
`),m.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await fe(process.argv.slice(2));
