#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{d as z}from"./chunk-4YACVZ3F.js";import{a as W,b as X,c as B,d as H,e as Z,f as ee}from"./chunk-67BLPPQN.js";import{a as S,b as P,c as _,d as G,f as M,g as O,h as p,i as x}from"./chunk-D6RE6F4W.js";import{e as L}from"./chunk-4VK6G6TN.js";import{a as K,b as q,c as V,g as R}from"./chunk-EMGMQRSQ.js";import{b as J,h as U}from"./chunk-4H4ZIIY5.js";import{a as I,b as f}from"./chunk-UICZUO3M.js";import"./chunk-OAK7KLHH.js";import"./chunk-GEQJ34AA.js";import"./chunk-7DPULHG4.js";import{a as Y,b as Q}from"./chunk-4EIYINA6.js";import"./chunk-S5VD56SW.js";import{f as y}from"./chunk-3FARLHVF.js";import"./chunk-NPDMPLWO.js";import{parseArgs as be}from"node:util";var te=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${Y.join(", ")}`;function b(e,r){return e.stderr(`skillgate gate: ${r.split(`
`)[0]}
${te}
`),2}function N(e,r,t){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>t?`--${r} must be an integer from 0 to ${t} (got '${e}')`:s}async function re(e,r){let t;try{t=ke(e)}catch(g){return b(r,g.message)}let{values:s,positionals:a}=t;if(s.help)return r.stdout(`${te}
`),0;let[o,l,...i]=a;if(!o||!l)return b(r,"expected a gate id and a module path");if(i.length)return b(r,`unexpected argument '${i[0]}'`);if(!Q(o))return b(r,`unknown gate '${o}'`);let c;if(s.options!==void 0){try{c=JSON.parse(s.options)}catch(g){return b(r,`--options is not valid JSON: ${g.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))return b(r,"--options must be a JSON object")}let u=N(s.seed,"seed",2**31-1),m=N(s.timeout,"timeout",36e5),d=N(s.memory,"memory",65536);for(let g of[u,m,d])if(typeof g=="string")return b(r,g);let n=await z(o,l,{export:s.export,options:c,seed:u,timeoutMs:m,memoryMb:d});if(s.json)r.stdout(`${JSON.stringify(n,null,2)}
`);else{r.stdout(`${n.passed?"PASS":"FAIL"} ${n.gate} ${l} (seed ${n.seed})
`);for(let g of n.checks)r.stdout(`  ${g.passed?"\u2713":"\u2717"} ${g.id}: ${g.message}
`);n.passed||r.stdout(`replay: skillgate gate ${o} ${l} --seed ${n.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return n.passed?0:1}function ke(e){return be({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as C,mkdirSync as we,readFileSync as ve,statSync as Ie,writeFileSync as Se}from"node:fs";import{basename as Oe,dirname as ie,join as h,relative as A,resolve as ne}from"node:path";import{parseArgs as Re}from"node:util";var se=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,oe=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function ae(e,r){let{values:t,positionals:s}=Re({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(t.help)return r.stdout(`${se}
`),p.pass;if(s.length!==1)throw new f(`init takes one skill
${se}`);let a=ne(t.repo??"."),o=xe(a,s[0]),l=h(o,"SKILL.md"),i=A(a,l).split("\\").join("/"),c=X(i,ve(l,"utf8"),"claude-code"),u=c.name??Oe(o),m=c.version??"1",d=h(o,"evals"),n={"meta.json":`${JSON.stringify({skillVersion:m,suiteVersion:m,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
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
`},g=Object.keys(n).filter($=>C(h(d,$)));if(g.length&&!t.force)throw new f(`${A(a,d)} already has ${g.join(", ")}; pass --force to overwrite`);for(let[$,w]of Object.entries(n))we(ie(h(d,$)),{recursive:!0}),Se(h(d,$),w),r.stdout(`created ${A(a,h(d,$)).split("\\").join("/")}
`);return r.stdout(`Replace the TODOs, then run: skillgate validate --repo ${t.repo??"."}
`),p.pass}function xe(e,r){let t=ne(e,r);if(C(t)){let s=Ie(t).isDirectory()?t:ie(t);if(C(h(s,"SKILL.md")))return s}for(let s of oe){let a=h(e,s,r);if(C(h(a,"SKILL.md")))return a}throw new f(`no skill \`${r}\`: looked for ${r}/SKILL.md and ${oe.map(s=>`${s}/${r}/SKILL.md`).join(", ")}`)}import{writeFile as E}from"node:fs/promises";import{parseArgs as Ce}from"node:util";var F=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,Ee=512*1024;async function le(e,r){let t;try{t=je(e)}catch(s){return r.stderr(`skillgate merge: ${s.message}
${F}
`),p.usage}if(t.values.help)return r.stdout(`${F}
`),0;if(t.positionals.length===0)return r.stderr(`skillgate merge: no report given
${F}
`),p.usage;try{let s=P(await _(t.positionals)),a=`${JSON.stringify(s,null,2)}
`,{values:o}=t;o.json?await E(o.json,a):r.stdout(a),o.junit&&await E(o.junit,S(s)),o.sarif&&await E(o.sarif,O(s)),o.markdown&&await E(o.markdown,M(s,{maxChars:Ee,fullReportHint:o.json??"the JSON report",charts:!0}));for(let l of s.errors)r.stderr(`skillgate merge: ${l}
`);return r.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),x(s.verdict)}catch(s){return s instanceof f?(r.stderr(`${s.message}
`),p.usage):(r.stderr(`skillgate merge: ${s.stack??s}
`),p.error)}}function je(e){return Ce({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as Le,writeFile as Ne}from"node:fs/promises";import{dirname as Ae,resolve as Fe}from"node:path";import{parseArgs as Te}from"node:util";function j(e={}){let r=e.stream??process.stderr,t=!!r.isTTY,s=!1,a=0,o=()=>{t&&s&&(r.write("\r\x1B[K"),s=!1)},l=i=>{o(),r.write(`${y(i)}
`)};return{info:i=>!e.quiet&&l(i),warn:i=>l(`warning: ${i}`),error:i=>l(`error: ${i}`),debug:i=>e.verbose&&l(i),group:async(i,c)=>c(),progress(i){if(e.quiet)return;let c=`trials ${i.done}/${i.total}  errors ${i.errors}  cache hits ${i.cacheHits}  cost $${i.costUsd.toFixed(4)}`;t?(r.write(`\r\x1B[K${c}`),s=i.done<i.total,s||r.write(`
`)):(i.done===i.total||Date.now()-a>5e3)&&(a=Date.now(),r.write(`${c}
`))}}}var De=`Usage: skillgate plan [options]

Says what \`skillgate run\` with the same options would run and spend, without running any trial: per skill and
battery the trials of the first batch, the cache hits expected, the agent calls and their estimated cost (from the
usage recorded by earlier runs of the same agent), the confirmation allowance and the budget.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter
  --trials N          trials per case and mode (overrides meta.json)
  --shard I/N         only shard I of N
  --no-cache          expect no cache hits
  --config FILE       configuration file (default .skillgate.yml)
  --json FILE         write the forecast as JSON

Exit codes: 0 within budget, 3 the first trials alone would exceed the budget (run would stop before spending),
2 usage or configuration error.`;async function de(e,r){let{values:t}=Te({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${De}
`),p.pass;let s=await R({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,noCache:t["no-cache"],config:t.config},j({quiet:!0})),{forecast:a,scope:o}=await ee(s);if(r.stdout(`${[o.message,...U(a)].join(`
`)}
`),t.json){let l=Fe(t.json);await Le(Ae(l),{recursive:!0}),await Ne(l,`${JSON.stringify({scope:o,forecast:a},null,2)}
`)}return a.overBudget?p.error:p.pass}import{mkdir as Me,writeFile as Je}from"node:fs/promises";import{dirname as Ue}from"node:path";import{parseArgs as Ke}from"node:util";var Pe=15,ce={pass:"PASS",fail:"FAIL",error:"ERROR"};function pe(e,r){let t=Ge(r.color),s=[],a=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${a(t.bold(`skillgate: ${ce[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${G(e)}, seed ${e.seed}]`),e.scope&&s.push(`  ${e.scope.message}`),e.base&&s.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}`)),s.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));let o=e.isolation;o&&o.level===o.required?s.push(t.dim(`  isolation: ${o.level}`)):o&&s.push(t.yellow(t.bold(`  WARNING isolation: ${o.level}, weaker than ${o.required}${o.weakerAccepted==="config"?" (accepted by the config's isolation.allowWeaker)":""}: ${o.reason}`)));for(let i of e.policy.roots)s.push(...D(i,i.blocking?t.red:t.dim,t));for(let i of e.errors)s.push(t.yellow(`  error: ${i}`));for(let i of e.skills)s.push("",..._e(i,t,r));let l=e.diagnostics.filter(i=>i.severity==="error");if(l.length){s.push("",t.bold("Validation errors"));for(let i of l)s.push(`  ${i.file}:${i.line}:${i.column}: ${i.message}`)}return s.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function _e(e,r,t){let s=[],a=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${a(ce[e.verdict].padEnd(5))} ${r.bold(e.name)} ${r.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let d=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${k(o.skill.discriminatorPassRate)}  baseline ${k(o.baseline.discriminatorPassRate)}  lift ${T(o.discriminatorLift)}`+(d?r.dim(`  (base: skill ${k(d.skill.discriminatorPassRate)}, lift ${T(d.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${k(o.skill.passRate)}  baseline ${k(o.baseline.passRate)}  lift ${T(o.lift)}`),o.styleGuideNotGuardrail&&s.push(r.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let l=e.trigger;if(l){let d=e.base?.trigger;s.push(`      trigger${l.proxy?` (${l.router} proxy)`:""}  precision ${k(l.precision)}  recall ${k(l.recall)}  F1 ${l.f1.toFixed(2)}`+(d?r.dim(`  (base: precision ${v(d.precision.rate)}, recall ${v(d.recall.rate)})`):""));for(let n of l.warnings)s.push(r.yellow(`      ${n}`))}let i=new Map;for(let d of e.gates.filter(n=>!n.passed)){let n=`gate ${d.gate} failed on ${d.module} (${d.caseId}/${d.assertionId})`;i.set(n,(i.get(n)??0)+1)}for(let[d,n]of[...i].slice(0,5))s.push(`      ${d}${n>1?` in ${n} trials`:""}`);let c=e.roots.filter(d=>d.blocking),u=e.roots.filter(d=>!d.blocking),m=t.verbose?Number.POSITIVE_INFINITY:Pe;for(let d of c.slice(0,m))s.push(...D(d,r.red,r));if(c.length>m&&s.push(r.red(`      \u2026 ${c.length-m} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let d of u.slice(0,m))s.push(...D(d,r.dim,r));u.length>m&&s.push(r.dim(`      \u2026 ${u.length-m} more root(s)`))}for(let d of e.reasons.slice(0,6))s.push(r.dim(`      \xB7 ${d}`));return s}function D(e,r,t){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",a=[r(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&a.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),a}function k(e){return`${v(e.rate)} [${v(e.low)}\u2013${v(e.high)}] (${e.passed}/${e.total})`}function v(e){return`${Math.round(e*100)}%`}function T(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Ge(e){let r=t=>s=>e?`\x1B[${t}m${s}\x1B[0m`:s;return{red:r(31),green:r(32),yellow:r(33),dim:r(2),bold:r(1)}}var qe=`Usage: skillgate run [options]

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

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ue(e,r){let{values:t}=Ke({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${qe}
`),0;let s=j({quiet:t.quiet,verbose:t.verbose}),a=await R({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},s),o=await Z(a),l=async(c,u)=>{c&&(await Me(Ue(c),{recursive:!0}),await Je(c,y(u)))};await l(a.outputs.json,`${JSON.stringify(o,null,2)}
`),await l(a.outputs.junit,S(o)),await l(a.outputs.sarif,O(o));let i=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return r.stdout(pe(o,{color:i,verbose:t.verbose})),x(o.verdict)}import{parseArgs as Ve}from"node:util";function me(e,r){let t=r?V(e,r):void 0,s=r&&!t?q(r):K({kind:"dir",dir:e},t,"the checkout");return{config:s.config,...s.file?{file:s.file}:{}}}var We=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function ge(e,r){let{values:t}=Ve({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${We}
`),p.pass;let s=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new f(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let a=[],o=t.profile??"claude-code",l,i,c;try{let{config:n}=me(s,t.config);!t.profile&&n.profile&&(o=n.profile),l=n.skills?.globs,i=n.skills?.include,c=n.skills?.exclude}catch(n){if(!(n instanceof f)||n.diagnostics.length===0)throw n;a.push(...n.diagnostics)}t.glob?.length&&(l=t.glob);let u=B(s,{profile:o,globs:l,include:i,exclude:c,assertionTypes:W(H)});a.push(...u.diagnostics,...J(u.skills));let m=a.filter(n=>n.severity==="error").length,d=a.length-m;if(t.json)r.stdout(`${JSON.stringify({profile:o,skills:u.skills.map(n=>({name:n.name,path:n.path,suite:n.suite?.root??null,cases:n.suite?.cases.length??0,triggerQueries:(n.suite?.trigger?.shouldFire.length??0)+(n.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:a,errors:m,warnings:d},null,2)}
`);else{for(let g of a)r.stdout(`${I(g)}
`);let n=u.skills.filter(g=>g.suite).length;r.stdout(`${u.skills.length} skill(s), ${n} suite(s) checked under the ${o} profile: ${m} error(s), ${d} warning(s)
`)}return m>0?p.usage:p.pass}var fe={run:ue,plan:de,validate:ge,init:ae,merge:le,gate:re};var he={stdout:e=>process.stdout.write(y(e)),stderr:e=>process.stderr.write(y(e))};var $e=`skillgate ${L} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  plan       say what \`run\` would run and spend (trials, cache hits, agent calls, USD), running nothing
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ye(e,r=he){let[t,...s]=e;if(!t||t==="help"||t==="--help"||t==="-h")return r.stdout(`${$e}
`),t?p.pass:p.usage;if(t==="--version"||t==="-v")return r.stdout(`${L}
`),p.pass;let a=fe[t];if(!a)return r.stderr(`skillgate: unknown command \`${t}\`

${$e}
`),p.usage;try{return await a(s,r)}catch(o){return Xe(o,r)}}function Xe(e,r){if(e instanceof f){r.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)r.stderr(`${I(s)}
`);return p.usage}let t=e.code;return typeof t=="string"&&t.startsWith("ERR_PARSE_ARGS")?(r.stderr(`skillgate: ${e.message}
`),p.usage):(r.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&r.stderr(`${e?.stack??""}
`),p.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await ye(process.argv.slice(2));
