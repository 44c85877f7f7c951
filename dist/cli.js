#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{d as B}from"./chunk-ABDXK475.js";import{a as U,b as K,c as V,d as q,e as H,f as Y}from"./chunk-63IFNZKM.js";import"./chunk-POHVBL2G.js";import{a as I,b as F,c as T,d as S,e as p,f as R}from"./chunk-QKEDBY47.js";import{a as C}from"./chunk-KLCHFWYS.js";import{a as D,c as P}from"./chunk-GYWAU2A6.js";import{a as _,b as M,c as G,g as J}from"./chunk-QYQ3R557.js";import"./chunk-FSD23WWV.js";import"./chunk-R7DIQFCR.js";import{a as v,b as f}from"./chunk-FSJY2P6A.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import{a as W,b as X}from"./chunk-MDWT7ZK6.js";import"./chunk-MMRSHGP6.js";import"./chunk-NPDMPLWO.js";import{parseArgs as fe}from"node:util";var Q=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${W.join(", ")}`;function y(e,r){return e.stderr(`skillgate gate: ${r.split(`
`)[0]}
${Q}
`),2}function E(e,r,t){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>t?`--${r} must be an integer from 0 to ${t} (got '${e}')`:s}async function z(e,r){let t;try{t=he(e)}catch(g){return y(r,g.message)}let{values:s,positionals:a}=t;if(s.help)return r.stdout(`${Q}
`),0;let[o,i,...d]=a;if(!o||!i)return y(r,"expected a gate id and a module path");if(d.length)return y(r,`unexpected argument '${d[0]}'`);if(!X(o))return y(r,`unknown gate '${o}'`);let c;if(s.options!==void 0){try{c=JSON.parse(s.options)}catch(g){return y(r,`--options is not valid JSON: ${g.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))return y(r,"--options must be a JSON object")}let u=E(s.seed,"seed",2**31-1),m=E(s.timeout,"timeout",36e5),l=E(s.memory,"memory",65536);for(let g of[u,m,l])if(typeof g=="string")return y(r,g);let n=await B(o,i,{export:s.export,options:c,seed:u,timeoutMs:m,memoryMb:l});if(s.json)r.stdout(`${JSON.stringify(n,null,2)}
`);else{r.stdout(`${n.passed?"PASS":"FAIL"} ${n.gate} ${i} (seed ${n.seed})
`);for(let g of n.checks)r.stdout(`  ${g.passed?"\u2713":"\u2717"} ${g.id}: ${g.message}
`);n.passed||r.stdout(`replay: skillgate gate ${o} ${i} --seed ${n.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return n.passed?0:1}function he(e){return fe({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as O,mkdirSync as $e,readFileSync as ye,statSync as be,writeFileSync as ke}from"node:fs";import{basename as we,dirname as te,join as h,relative as j,resolve as re}from"node:path";import{parseArgs as ve}from"node:util";var Z=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,ee=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function se(e,r){let{values:t,positionals:s}=ve({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(t.help)return r.stdout(`${Z}
`),p.pass;if(s.length!==1)throw new f(`init takes one skill
${Z}`);let a=re(t.repo??"."),o=Ie(a,s[0]),i=h(o,"SKILL.md"),d=j(a,i).split("\\").join("/"),c=K(d,ye(i,"utf8"),"claude-code"),u=c.name??we(o),m=c.version??"1",l=h(o,"evals"),n={"meta.json":`${JSON.stringify({skillVersion:m,suiteVersion:m,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
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
`,"trigger-eval.json":`${JSON.stringify({shouldFire:Array.from({length:10},($,k)=>({prompt:`TODO: prompt ${k+1} that should activate ${u}`})),shouldNotFire:Array.from({length:10},($,k)=>({prompt:`TODO: near-miss prompt ${k+1} that must not activate ${u}`}))},null,2)}
`},g=Object.keys(n).filter($=>O(h(l,$)));if(g.length&&!t.force)throw new f(`${j(a,l)} already has ${g.join(", ")}; pass --force to overwrite`);for(let[$,k]of Object.entries(n))$e(te(h(l,$)),{recursive:!0}),ke(h(l,$),k),r.stdout(`created ${j(a,h(l,$)).split("\\").join("/")}
`);return r.stdout(`Replace the TODOs, then run: skillgate validate --repo ${t.repo??"."}
`),p.pass}function Ie(e,r){let t=re(e,r);if(O(t)){let s=be(t).isDirectory()?t:te(t);if(O(h(s,"SKILL.md")))return s}for(let s of ee){let a=h(e,s,r);if(O(h(a,"SKILL.md")))return a}throw new f(`no skill \`${r}\`: looked for ${r}/SKILL.md and ${ee.map(s=>`${s}/${r}/SKILL.md`).join(", ")}`)}import{writeFile as x}from"node:fs/promises";import{parseArgs as Se}from"node:util";var L=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,Re=512*1024;async function oe(e,r){let t;try{t=Oe(e)}catch(s){return r.stderr(`skillgate merge: ${s.message}
${L}
`),p.usage}if(t.values.help)return r.stdout(`${L}
`),0;if(t.positionals.length===0)return r.stderr(`skillgate merge: no report given
${L}
`),p.usage;try{let s=F(await T(t.positionals)),a=`${JSON.stringify(s,null,2)}
`,{values:o}=t;o.json?await x(o.json,a):r.stdout(a),o.junit&&await x(o.junit,I(s)),o.sarif&&await x(o.sarif,S(s)),o.markdown&&await x(o.markdown,P(s,{maxChars:Re,fullReportHint:o.json??"the JSON report",charts:!0}));for(let i of s.errors)r.stderr(`skillgate merge: ${i}
`);return r.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),R(s.verdict)}catch(s){return s instanceof f?(r.stderr(`${s.message}
`),p.usage):(r.stderr(`skillgate merge: ${s.stack??s}
`),p.error)}}function Oe(e){return Se({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as je,writeFile as Le}from"node:fs/promises";import{dirname as Ne}from"node:path";import{parseArgs as Ae}from"node:util";var xe=15,ie={pass:"PASS",fail:"FAIL",error:"ERROR"};function ne(e,r){let t=Ee(r.color),s=[],a=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${a(t.bold(`skillgate: ${ie[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${D(e)}, seed ${e.seed}]`),e.scope&&s.push(`  ${e.scope.message}`),e.base&&s.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}${e.base.tip&&e.base.sha?` (merge base ${e.base.sha.slice(0,12)}; the base ref is now at ${e.base.tip.slice(0,12)})`:""}`)),s.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));for(let i of e.policy.roots)s.push(...A(i,i.blocking?t.red:t.dim,t));for(let i of e.errors)s.push(t.yellow(`  error: ${i}`));for(let i of e.skills)s.push("",...Ce(i,t,r));let o=e.diagnostics.filter(i=>i.severity==="error");if(o.length){s.push("",t.bold("Validation errors"));for(let i of o)s.push(`  ${i.file}:${i.line}:${i.column}: ${i.message}`)}return s.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function Ce(e,r,t){let s=[],a=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${a(ie[e.verdict].padEnd(5))} ${r.bold(e.name)} ${r.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let l=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${b(o.skill.discriminatorPassRate)}  baseline ${b(o.baseline.discriminatorPassRate)}  lift ${N(o.discriminatorLift)}`+(l?r.dim(`  (base: skill ${b(l.skill.discriminatorPassRate)}, lift ${N(l.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${b(o.skill.passRate)}  baseline ${b(o.baseline.passRate)}  lift ${N(o.lift)}`),o.styleGuideNotGuardrail&&s.push(r.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let i=e.trigger;if(i){let l=e.base?.trigger;s.push(`      trigger${i.proxy?` (${i.router} proxy)`:""}  precision ${b(i.precision)}  recall ${b(i.recall)}  F1 ${i.f1.toFixed(2)}`+(l?r.dim(`  (base: precision ${w(l.precision.rate)}, recall ${w(l.recall.rate)})`):""));for(let n of i.warnings)s.push(r.yellow(`      ${n}`))}let d=new Map;for(let l of e.gates.filter(n=>!n.passed)){let n=`gate ${l.gate} failed on ${l.module} (${l.caseId}/${l.assertionId})`;d.set(n,(d.get(n)??0)+1)}for(let[l,n]of[...d].slice(0,5))s.push(`      ${l}${n>1?` in ${n} trials`:""}`);let c=e.roots.filter(l=>l.blocking),u=e.roots.filter(l=>!l.blocking),m=t.verbose?Number.POSITIVE_INFINITY:xe;for(let l of c.slice(0,m))s.push(...A(l,r.red,r));if(c.length>m&&s.push(r.red(`      \u2026 ${c.length-m} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let l of u.slice(0,m))s.push(...A(l,r.dim,r));u.length>m&&s.push(r.dim(`      \u2026 ${u.length-m} more root(s)`))}for(let l of e.reasons.slice(0,6))s.push(r.dim(`      \xB7 ${l}`));return s}function A(e,r,t){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",a=[r(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&a.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),a}function b(e){return`${w(e.rate)} [${w(e.low)}\u2013${w(e.high)}] (${e.passed}/${e.total})`}function w(e){return`${Math.round(e*100)}%`}function N(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Ee(e){let r=t=>s=>e?`\x1B[${t}m${s}\x1B[0m`:s;return{red:r(31),green:r(32),yellow:r(33),dim:r(2),bold:r(1)}}function ae(e={}){let r=e.stream??process.stderr,t=!!r.isTTY,s=!1,a=0,o=()=>{t&&s&&(r.write("\r\x1B[K"),s=!1)},i=d=>{o(),r.write(`${d}
`)};return{info:d=>!e.quiet&&i(d),warn:d=>i(`warning: ${d}`),error:d=>i(`error: ${d}`),debug:d=>e.verbose&&i(d),group:async(d,c)=>c(),progress(d){if(e.quiet)return;let c=`trials ${d.done}/${d.total}  errors ${d.errors}  cache hits ${d.cacheHits}  cost $${d.costUsd.toFixed(4)}`;t?(r.write(`\r\x1B[K${c}`),s=d.done<d.total,s||r.write(`
`)):(d.done===d.total||Date.now()-a>5e3)&&(a=Date.now(),r.write(`${c}
`))}}}var Fe=`Usage: skillgate run [options]

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

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function le(e,r){let{values:t}=Ae({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},"base-report":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${Fe}
`),0;let s=ae({quiet:t.quiet,verbose:t.verbose}),a=await J({repo:t.repo,base:t.base,baseDir:t["base-dir"],baseReport:t["base-report"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},s),o=await Y(a),i=async(c,u)=>{c&&(await je(Ne(c),{recursive:!0}),await Le(c,u))};await i(a.outputs.json,`${JSON.stringify(o,null,2)}
`),await i(a.outputs.junit,I(o)),await i(a.outputs.sarif,S(o));let d=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return r.stdout(ne(o,{color:d,verbose:t.verbose})),R(o.verdict)}import{parseArgs as Te}from"node:util";function de(e,r){let t=r?G(e,r):void 0,s=r&&!t?M(r):_({kind:"dir",dir:e},t,"the checkout");return{config:s.config,...s.file?{file:s.file}:{}}}var De=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function ce(e,r){let{values:t}=Te({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return r.stdout(`${De}
`),p.pass;let s=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new f(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let a=[],o=t.profile??"claude-code",i,d,c;try{let{config:n}=de(s,t.config);!t.profile&&n.profile&&(o=n.profile),i=n.skills?.globs,d=n.skills?.include,c=n.skills?.exclude}catch(n){if(!(n instanceof f)||n.diagnostics.length===0)throw n;a.push(...n.diagnostics)}t.glob?.length&&(i=t.glob);let u=V(s,{profile:o,globs:i,include:d,exclude:c,assertionTypes:U(q)});a.push(...u.diagnostics,...H(u.skills));let m=a.filter(n=>n.severity==="error").length,l=a.length-m;if(t.json)r.stdout(`${JSON.stringify({profile:o,skills:u.skills.map(n=>({name:n.name,path:n.path,suite:n.suite?.root??null,cases:n.suite?.cases.length??0,triggerQueries:(n.suite?.trigger?.shouldFire.length??0)+(n.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:a,errors:m,warnings:l},null,2)}
`);else{for(let g of a)r.stdout(`${v(g)}
`);let n=u.skills.filter(g=>g.suite).length;r.stdout(`${u.skills.length} skill(s), ${n} suite(s) checked under the ${o} profile: ${m} error(s), ${l} warning(s)
`)}return m>0?p.usage:p.pass}var pe={run:le,validate:ce,init:se,merge:oe,gate:z};var ue={stdout:e=>process.stdout.write(e),stderr:e=>process.stderr.write(e)};var me=`skillgate ${C} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ge(e,r=ue){let[t,...s]=e;if(!t||t==="help"||t==="--help"||t==="-h")return r.stdout(`${me}
`),t?p.pass:p.usage;if(t==="--version"||t==="-v")return r.stdout(`${C}
`),p.pass;let a=pe[t];if(!a)return r.stderr(`skillgate: unknown command \`${t}\`

${me}
`),p.usage;try{return await a(s,r)}catch(o){return Pe(o,r)}}function Pe(e,r){if(e instanceof f){r.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)r.stderr(`${v(s)}
`);return p.usage}let t=e.code;return typeof t=="string"&&t.startsWith("ERR_PARSE_ARGS")?(r.stderr(`skillgate: ${e.message}
`),p.usage):(r.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&r.stderr(`${e?.stack??""}
`),p.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await ge(process.argv.slice(2));
