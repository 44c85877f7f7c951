#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a as B,e as H}from"./chunk-3D6WJOFY.js";import{a as U,b as K,c as V,d as q,e as Y,f as Q}from"./chunk-CBPOYNOV.js";import"./chunk-POHVBL2G.js";import{a as I,b as F,c as T,d as D,f as P,g as S,h as p,i as O}from"./chunk-DNDHAJA2.js";import{a as C}from"./chunk-KLCHFWYS.js";import{a as _,b as M,c as G,g as J}from"./chunk-HOW4T4JC.js";import"./chunk-B4YWQM6Y.js";import{a as v,b as h}from"./chunk-7IRCYMAJ.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import{d as W,e as X}from"./chunk-EWUETSNV.js";import"./chunk-MMRSHGP6.js";import"./chunk-7YYJ4RBL.js";import"./chunk-2NTZGRJK.js";import"./chunk-NPDMPLWO.js";import{parseArgs as he}from"node:util";var z=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${W.join(", ")}`;function y(e,r){return e.stderr(`skillgate gate: ${r.split(`
`)[0]}
${z}
`),2}function E(e,r,t){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>t?`--${r} must be an integer from 0 to ${t} (got '${e}')`:s}async function Z(e,r){let t;try{t=$e(e)}catch(u){return y(r,u.message)}let{values:s,positionals:a}=t;if(s.help)return r.stdout(`${z}
`),0;let[o,i,...d]=a;if(!o||!i)return y(r,"expected a gate id and a module path");if(d.length)return y(r,`unexpected argument '${d[0]}'`);if(!X(o))return y(r,`unknown gate '${o}'`);let c;if(s.options!==void 0){try{c=JSON.parse(s.options)}catch(f){return y(r,`--options is not valid JSON: ${f.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))return y(r,"--options must be a JSON object");let u=B(o,c);if(u.length)return y(r,`--options for gate ${o}: ${u.map(f=>`${f.path||"(options)"}: ${f.message}`).join("; ")}`)}let m=E(s.seed,"seed",2**31-1),g=E(s.timeout,"timeout",36e5),l=E(s.memory,"memory",65536);for(let u of[m,g,l])if(typeof u=="string")return y(r,u);let n=await H(o,i,{export:s.export,options:c,seed:m,timeoutMs:g,memoryMb:l});if(s.json)r.stdout(`${JSON.stringify(n,null,2)}
`);else{r.stdout(`${n.passed?"PASS":"FAIL"} ${n.gate} ${i} (seed ${n.seed})
`);for(let u of n.checks)r.stdout(`  ${u.passed?"\u2713":"\u2717"} ${u.id}: ${u.message}
`);n.passed||r.stdout(`replay: skillgate gate ${o} ${i} --seed ${n.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return n.passed?0:1}function $e(e){return he({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as R,mkdirSync as ye,readFileSync as be,statSync as ke,writeFileSync as we}from"node:fs";import{basename as ve,dirname as re,join as $,relative as j,resolve as se}from"node:path";import{parseArgs as Ie}from"node:util";var ee=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,te=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function oe(e,r){let{values:t,positionals:s}=Ie({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(t.help)return r.stdout(`${ee}
`),p.pass;if(s.length!==1)throw new h(`init takes one skill
${ee}`);let a=se(t.repo??"."),o=Se(a,s[0]),i=$(o,"SKILL.md"),d=j(a,i).split("\\").join("/"),c=K(d,be(i,"utf8"),"claude-code"),m=c.name??ve(o),g=c.version??"1",l=$(o,"evals"),n={"meta.json":`${JSON.stringify({skillVersion:g,suiteVersion:g,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${m} suite. Add more files like this one in prompts/.
# A discriminator (id starting D:) traps the single most tempting wrong answer an agent gives without the skill:
# test for the absence of that answer, not for one exact right answer.
id: example
prompt: "TODO: a realistic task where an agent without the ${m} skill gives a confident wrong answer"
assertions:
  - id: D:avoids-tempting-wrong-answer
    type: not-contains
    value: "TODO: the wrong answer a naive agent gives"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({shouldFire:Array.from({length:10},(f,k)=>({prompt:`TODO: prompt ${k+1} that should activate ${m}`})),shouldNotFire:Array.from({length:10},(f,k)=>({prompt:`TODO: near-miss prompt ${k+1} that must not activate ${m}`}))},null,2)}
`},u=Object.keys(n).filter(f=>R($(l,f)));if(u.length&&!t.force)throw new h(`${j(a,l)} already has ${u.join(", ")}; pass --force to overwrite`);for(let[f,k]of Object.entries(n))ye(re($(l,f)),{recursive:!0}),we($(l,f),k),r.stdout(`created ${j(a,$(l,f)).split("\\").join("/")}
`);return r.stdout(`Replace the TODOs, then run: skillgate validate --repo ${t.repo??"."}
`),p.pass}function Se(e,r){let t=se(e,r);if(R(t)){let s=ke(t).isDirectory()?t:re(t);if(R($(s,"SKILL.md")))return s}for(let s of te){let a=$(e,s,r);if(R($(a,"SKILL.md")))return a}throw new h(`no skill \`${r}\`: looked for ${r}/SKILL.md and ${te.map(s=>`${s}/${r}/SKILL.md`).join(", ")}`)}import{writeFile as x}from"node:fs/promises";import{parseArgs as Oe}from"node:util";var L=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,Re=512*1024;async function ie(e,r){let t;try{t=xe(e)}catch(s){return r.stderr(`skillgate merge: ${s.message}
${L}
`),p.usage}if(t.values.help)return r.stdout(`${L}
`),0;if(t.positionals.length===0)return r.stderr(`skillgate merge: no report given
${L}
`),p.usage;try{let s=F(await T(t.positionals)),a=`${JSON.stringify(s,null,2)}
`,{values:o}=t;o.json?await x(o.json,a):r.stdout(a),o.junit&&await x(o.junit,I(s)),o.sarif&&await x(o.sarif,S(s)),o.markdown&&await x(o.markdown,P(s,{maxChars:Re,fullReportHint:o.json??"the JSON report",charts:!0}));for(let i of s.errors)r.stderr(`skillgate merge: ${i}
`);return r.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),O(s.verdict)}catch(s){return s instanceof h?(r.stderr(`${s.message}
`),p.usage):(r.stderr(`skillgate merge: ${s.stack??s}
`),p.error)}}function xe(e){return Oe({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as Le,writeFile as Ne}from"node:fs/promises";import{dirname as Ae}from"node:path";import{parseArgs as Fe}from"node:util";var Ce=15,ne={pass:"PASS",fail:"FAIL",error:"ERROR"};function ae(e,r){let t=je(r.color),s=[],a=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${a(t.bold(`skillgate: ${ne[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${D(e)}, seed ${e.seed}]`),e.scope&&s.push(`  ${e.scope.message}`),e.base&&s.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}`)),s.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));for(let i of e.policy.roots)s.push(...A(i,i.blocking?t.red:t.dim,t));for(let i of e.errors)s.push(t.yellow(`  error: ${i}`));for(let i of e.skills)s.push("",...Ee(i,t,r));let o=e.diagnostics.filter(i=>i.severity==="error");if(o.length){s.push("",t.bold("Validation errors"));for(let i of o)s.push(`  ${i.file}:${i.line}:${i.column}: ${i.message}`)}return s.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function Ee(e,r,t){let s=[],a=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${a(ne[e.verdict].padEnd(5))} ${r.bold(e.name)} ${r.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let l=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${b(o.skill.discriminatorPassRate)}  baseline ${b(o.baseline.discriminatorPassRate)}  lift ${N(o.discriminatorLift)}`+(l?r.dim(`  (base: skill ${b(l.skill.discriminatorPassRate)}, lift ${N(l.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${b(o.skill.passRate)}  baseline ${b(o.baseline.passRate)}  lift ${N(o.lift)}`),o.styleGuideNotGuardrail&&s.push(r.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let i=e.trigger;if(i){let l=e.base?.trigger;s.push(`      trigger${i.proxy?` (${i.router} proxy)`:""}  precision ${b(i.precision)}  recall ${b(i.recall)}  F1 ${i.f1.toFixed(2)}`+(l?r.dim(`  (base: precision ${w(l.precision.rate)}, recall ${w(l.recall.rate)})`):""));for(let n of i.warnings)s.push(r.yellow(`      ${n}`))}let d=new Map;for(let l of e.gates.filter(n=>!n.passed)){let n=`gate ${l.gate} failed on ${l.module} (${l.caseId}/${l.assertionId})`;d.set(n,(d.get(n)??0)+1)}for(let[l,n]of[...d].slice(0,5))s.push(`      ${l}${n>1?` in ${n} trials`:""}`);let c=e.roots.filter(l=>l.blocking),m=e.roots.filter(l=>!l.blocking),g=t.verbose?Number.POSITIVE_INFINITY:Ce;for(let l of c.slice(0,g))s.push(...A(l,r.red,r));if(c.length>g&&s.push(r.red(`      \u2026 ${c.length-g} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let l of m.slice(0,g))s.push(...A(l,r.dim,r));m.length>g&&s.push(r.dim(`      \u2026 ${m.length-g} more root(s)`))}for(let l of e.reasons.slice(0,6))s.push(r.dim(`      \xB7 ${l}`));return s}function A(e,r,t){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",a=[r(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&a.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),a}function b(e){return`${w(e.rate)} [${w(e.low)}\u2013${w(e.high)}] (${e.passed}/${e.total})`}function w(e){return`${Math.round(e*100)}%`}function N(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function je(e){let r=t=>s=>e?`\x1B[${t}m${s}\x1B[0m`:s;return{red:r(31),green:r(32),yellow:r(33),dim:r(2),bold:r(1)}}function le(e={}){let r=e.stream??process.stderr,t=!!r.isTTY,s=!1,a=0,o=()=>{t&&s&&(r.write("\r\x1B[K"),s=!1)},i=d=>{o(),r.write(`${d}
`)};return{info:d=>!e.quiet&&i(d),warn:d=>i(`warning: ${d}`),error:d=>i(`error: ${d}`),debug:d=>e.verbose&&i(d),group:async(d,c)=>c(),progress(d){if(e.quiet)return;let c=`trials ${d.done}/${d.total}  errors ${d.errors}  cache hits ${d.cacheHits}  cost $${d.costUsd.toFixed(4)}`;t?(r.write(`\r\x1B[K${c}`),s=d.done<d.total,s||r.write(`
`)):(d.done===d.total||Date.now()-a>5e3)&&(a=Date.now(),r.write(`${c}
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
`),0;let s=le({quiet:t.quiet,verbose:t.verbose}),a=await J({repo:t.repo,base:t.base,baseDir:t["base-dir"],baseReport:t["base-report"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},s),o=await Q(a),i=async(c,m)=>{c&&(await Le(Ae(c),{recursive:!0}),await Ne(c,m))};await i(a.outputs.json,`${JSON.stringify(o,null,2)}
`),await i(a.outputs.junit,I(o)),await i(a.outputs.sarif,S(o));let d=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return r.stdout(ae(o,{color:d,verbose:t.verbose})),O(o.verdict)}import{parseArgs as De}from"node:util";function ce(e,r){let t=r?G(e,r):void 0,s=r&&!t?M(r):_({kind:"dir",dir:e},t,"the checkout");return{config:s.config,...s.file?{file:s.file}:{}}}var Pe=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function pe(e,r){let{values:t}=De({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${Pe}
`),p.pass;let s=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new h(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let a=[],o=t.profile??"claude-code",i,d,c;try{let{config:n}=ce(s,t.config);!t.profile&&n.profile&&(o=n.profile),i=n.skills?.globs,d=n.skills?.include,c=n.skills?.exclude}catch(n){if(!(n instanceof h)||n.diagnostics.length===0)throw n;a.push(...n.diagnostics)}t.glob?.length&&(i=t.glob);let m=V(s,{profile:o,globs:i,include:d,exclude:c,assertionTypes:U(q)});a.push(...m.diagnostics,...Y(m.skills));let g=a.filter(n=>n.severity==="error").length,l=a.length-g;if(t.json)r.stdout(`${JSON.stringify({profile:o,skills:m.skills.map(n=>({name:n.name,path:n.path,suite:n.suite?.root??null,cases:n.suite?.cases.length??0,triggerQueries:(n.suite?.trigger?.shouldFire.length??0)+(n.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:a,errors:g,warnings:l},null,2)}
`);else{for(let u of a)r.stdout(`${v(u)}
`);let n=m.skills.filter(u=>u.suite).length;r.stdout(`${m.skills.length} skill(s), ${n} suite(s) checked under the ${o} profile: ${g} error(s), ${l} warning(s)
`)}return g>0?p.usage:p.pass}var me={run:de,validate:pe,init:oe,merge:ie,gate:Z};var ue={stdout:e=>process.stdout.write(e),stderr:e=>process.stderr.write(e)};var ge=`skillgate ${C} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function fe(e,r=ue){let[t,...s]=e;if(!t||t==="help"||t==="--help"||t==="-h")return r.stdout(`${ge}
`),t?p.pass:p.usage;if(t==="--version"||t==="-v")return r.stdout(`${C}
`),p.pass;let a=me[t];if(!a)return r.stderr(`skillgate: unknown command \`${t}\`

${ge}
`),p.usage;try{return await a(s,r)}catch(o){return _e(o,r)}}function _e(e,r){if(e instanceof h){r.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)r.stderr(`${v(s)}
`);return p.usage}let t=e.code;return typeof t=="string"&&t.startsWith("ERR_PARSE_ARGS")?(r.stderr(`skillgate: ${e.message}
`),p.usage):(r.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&r.stderr(`${e?.stack??""}
`),p.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await fe(process.argv.slice(2));
