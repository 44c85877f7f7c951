#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a as I,b as A,c as T,e as F,f as S,g as p,h as O}from"./chunk-WX37KLYE.js";import{d as U}from"./chunk-ABDXK475.js";import{a as J,b as G}from"./chunk-MDWT7ZK6.js";import{a as D,b as P,c as _,d as M,e as K,f as V}from"./chunk-GZ4TMI53.js";import{a as E}from"./chunk-KLCHFWYS.js";import"./chunk-MMRSHGP6.js";import"./chunk-F7Z3SGNQ.js";import{a as q,d as W}from"./chunk-QTW3TOVB.js";import"./chunk-7UT3WTGO.js";import{a as v,b as f}from"./chunk-7IRCYMAJ.js";import"./chunk-NPDMPLWO.js";import{parseArgs as pe}from"node:util";var X=`usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${J.join(", ")}`;function y(e,t){return e.stderr(`skillgate gate: ${t.split(`
`)[0]}
${X}
`),2}function C(e,t,r){if(e===void 0)return;let s=Number(e);return!/^\d+$/.test(e)||!Number.isSafeInteger(s)||s>r?`--${t} must be an integer from 0 to ${r} (got '${e}')`:s}async function H(e,t){let r;try{r=ue(e)}catch(g){return y(t,g.message)}let{values:s,positionals:a}=r;if(s.help)return t.stdout(`${X}
`),0;let[o,n,...d]=a;if(!o||!n)return y(t,"expected a gate id and a module path");if(d.length)return y(t,`unexpected argument '${d[0]}'`);if(!G(o))return y(t,`unknown gate '${o}'`);let c;if(s.options!==void 0){try{c=JSON.parse(s.options)}catch(g){return y(t,`--options is not valid JSON: ${g.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))return y(t,"--options must be a JSON object")}let u=C(s.seed,"seed",2**31-1),m=C(s.timeout,"timeout",36e5),l=C(s.memory,"memory",65536);for(let g of[u,m,l])if(typeof g=="string")return y(t,g);let i=await U(o,n,{export:s.export,options:c,seed:u,timeoutMs:m,memoryMb:l});if(s.json)t.stdout(`${JSON.stringify(i,null,2)}
`);else{t.stdout(`${i.passed?"PASS":"FAIL"} ${i.gate} ${n} (seed ${i.seed})
`);for(let g of i.checks)t.stdout(`  ${g.passed?"\u2713":"\u2717"} ${g.id}: ${g.message}
`);i.passed||t.stdout(`replay: skillgate gate ${o} ${n} --seed ${i.seed}${s.export?` --export ${s.export}`:""}${s.options?` --options '${s.options}'`:""}
`)}return i.passed?0:1}function ue(e){return pe({args:e,allowPositionals:!0,strict:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}})}import{existsSync as R,mkdirSync as me,readFileSync as ge,statSync as fe,writeFileSync as he}from"node:fs";import{basename as $e,dirname as Q,join as h,relative as j,resolve as z}from"node:path";import{parseArgs as ye}from"node:util";var B=`Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`,Y=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function Z(e,t){let{values:r,positionals:s}=ye({args:e,options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0,strict:!0});if(r.help)return t.stdout(`${B}
`),p.pass;if(s.length!==1)throw new f(`init takes one skill
${B}`);let a=z(r.repo??"."),o=be(a,s[0]),n=h(o,"SKILL.md"),d=j(a,n).split("\\").join("/"),c=P(d,ge(n,"utf8"),"claude-code"),u=c.name??$e(o),m=c.version??"1",l=h(o,"evals"),i={"meta.json":`${JSON.stringify({skillVersion:m,suiteVersion:m,trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
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
`},g=Object.keys(i).filter($=>R(h(l,$)));if(g.length&&!r.force)throw new f(`${j(a,l)} already has ${g.join(", ")}; pass --force to overwrite`);for(let[$,k]of Object.entries(i))me(Q(h(l,$)),{recursive:!0}),he(h(l,$),k),t.stdout(`created ${j(a,h(l,$)).split("\\").join("/")}
`);return t.stdout(`Replace the TODOs, then run: skillgate validate --repo ${r.repo??"."}
`),p.pass}function be(e,t){let r=z(e,t);if(R(r)){let s=fe(r).isDirectory()?r:Q(r);if(R(h(s,"SKILL.md")))return s}for(let s of Y){let a=h(e,s,t);if(R(h(a,"SKILL.md")))return a}throw new f(`no skill \`${t}\`: looked for ${t}/SKILL.md and ${Y.map(s=>`${s}/${t}/SKILL.md`).join(", ")}`)}import{writeFile as x}from"node:fs/promises";import{parseArgs as ke}from"node:util";var L=`usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`,we=512*1024;async function ee(e,t){let r;try{r=ve(e)}catch(s){return t.stderr(`skillgate merge: ${s.message}
${L}
`),p.usage}if(r.values.help)return t.stdout(`${L}
`),0;if(r.positionals.length===0)return t.stderr(`skillgate merge: no report given
${L}
`),p.usage;try{let s=A(await T(r.positionals)),a=`${JSON.stringify(s,null,2)}
`,{values:o}=r;o.json?await x(o.json,a):t.stdout(a),o.junit&&await x(o.junit,I(s)),o.sarif&&await x(o.sarif,S(s)),o.markdown&&await x(o.markdown,F(s,{maxChars:we,fullReportHint:o.json??"the JSON report",charts:!0}));for(let n of s.errors)t.stderr(`skillgate merge: ${n}
`);return t.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),O(s.verdict)}catch(s){return s instanceof f?(t.stderr(`${s.message}
`),p.usage):(t.stderr(`skillgate merge: ${s.stack??s}
`),p.error)}}function ve(e){return ke({args:e,allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}})}import{mkdir as Oe,writeFile as Re}from"node:fs/promises";import{dirname as xe}from"node:path";import{parseArgs as Ee}from"node:util";var re={pass:"PASS",fail:"FAIL",error:"ERROR"};function se(e,t){let r=Se(t.color),s=[],a=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;s.push(`${a(r.bold(`skillgate: ${re[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.newRoots.length} new root(s)  [agent ${e.agent.adapter}, ${e.trials} trial(s), seed ${e.seed}]`),e.base&&s.push(r.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}`));for(let n of e.errors)s.push(r.yellow(`  error: ${n}`));for(let n of e.skills)s.push("",...Ie(n,r,t));let o=e.diagnostics.filter(n=>n.severity==="error");if(o.length){s.push("",r.bold("Validation errors"));for(let n of o)s.push(`  ${n.file}:${n.line}:${n.column}: ${n.message}`)}return s.push("",r.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${s.join(`
`)}
`}function Ie(e,t,r){let s=[],a=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;s.push(`${a(re[e.verdict].padEnd(5))} ${t.bold(e.name)} ${t.dim(`(${e.change}, ${e.path})`)}`);let o=e.discriminator;if(o){let l=e.base?.discriminator;s.push(`      discriminator pass rate  skill ${b(o.skill.discriminatorPassRate)}  baseline ${b(o.baseline.discriminatorPassRate)}  lift ${N(o.discriminatorLift)}`+(l?t.dim(`  (base: skill ${b(l.skill.discriminatorPassRate)}, lift ${N(l.discriminatorLift)})`):"")),s.push(`      overall pass rate        skill ${b(o.skill.passRate)}  baseline ${b(o.baseline.passRate)}  lift ${N(o.lift)}`),o.styleGuideNotGuardrail&&s.push(t.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let n=e.trigger;if(n){let l=e.base?.trigger;s.push(`      trigger${n.proxy?` (${n.router} proxy)`:""}  precision ${b(n.precision)}  recall ${b(n.recall)}  F1 ${n.f1.toFixed(2)}`+(l?t.dim(`  (base: precision ${w(l.precision.rate)}, recall ${w(l.recall.rate)})`):""));for(let i of n.warnings)s.push(t.yellow(`      ${i}`))}let d=new Map;for(let l of e.gates.filter(i=>!i.passed)){let i=`gate ${l.gate} failed on ${l.module} (${l.caseId}/${l.assertionId})`;d.set(i,(d.get(i)??0)+1)}for(let[l,i]of[...d].slice(0,5))s.push(`      ${l}${i>1?` in ${i} trials`:""}`);let c=e.roots.filter(l=>l.blocking),u=e.roots.filter(l=>!l.blocking),m=r.verbose?Number.POSITIVE_INFINITY:15;for(let l of c.slice(0,m))s.push(...te(l,t.red,t));if(c.length>m&&s.push(t.red(`      \u2026 ${c.length-m} more blocking root(s) (--verbose or the JSON report lists all)`)),r.verbose||e.verdict!=="pass"){for(let l of u.slice(0,m))s.push(...te(l,t.dim,t));u.length>m&&s.push(t.dim(`      \u2026 ${u.length-m} more root(s)`))}for(let l of e.reasons.slice(0,6))s.push(t.dim(`      \xB7 ${l}`));return s}function te(e,t,r){let s=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",a=[t(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+r.dim(`  ${e.file}:${e.line}${s}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&a.push(r.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),a}function b(e){return`${w(e.rate)} [${w(e.low)}\u2013${w(e.high)}] (${e.passed}/${e.total})`}function w(e){return`${Math.round(e*100)}%`}function N(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Se(e){let t=r=>s=>e?`\x1B[${r}m${s}\x1B[0m`:s;return{red:t(31),green:t(32),yellow:t(33),dim:t(2),bold:t(1)}}function oe(e={}){let t=e.stream??process.stderr,r=!!t.isTTY,s=!1,a=0,o=()=>{r&&s&&(t.write("\r\x1B[K"),s=!1)},n=d=>{o(),t.write(`${d}
`)};return{info:d=>!e.quiet&&n(d),warn:d=>n(`warning: ${d}`),error:d=>n(`error: ${d}`),debug:d=>e.verbose&&n(d),group:async(d,c)=>c(),progress(d){if(e.quiet)return;let c=`trials ${d.done}/${d.total}  errors ${d.errors}  cache hits ${d.cacheHits}  cost $${d.costUsd.toFixed(4)}`;r?(t.write(`\r\x1B[K${c}`),s=d.done<d.total,s||t.write(`
`)):(d.done===d.total||Date.now()-a>5e3)&&(a=Date.now(),t.write(`${c}
`))}}}var Ce=`Usage: skillgate run [options]

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
  --allow-suite-change  accept a weakened suite (reported)
  --quiet, --verbose

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ie(e,t){let{values:r}=Ee({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},"base-report":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-suite-change":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(r.help)return t.stdout(`${Ce}
`),0;let s=oe({quiet:r.quiet,verbose:r.verbose}),a=await W({repo:r.repo,base:r.base,baseDir:r["base-dir"],baseReport:r["base-report"],skills:r.skills,agent:r.agent,trials:r.trials,shard:r.shard,seed:r.seed,noCache:r["no-cache"],config:r.config,json:r.json,junit:r.junit,sarif:r.sarif,record:r.record,allowSuiteChange:r["allow-suite-change"]},s),o=await V(a),n=async(c,u)=>{c&&(await Oe(xe(c),{recursive:!0}),await Re(c,u))};await n(a.outputs.json,`${JSON.stringify(o,null,2)}
`),await n(a.outputs.junit,I(o)),await n(a.outputs.sarif,S(o));let d=!r["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return t.stdout(se(o,{color:d,verbose:r.verbose})),O(o.verdict)}import{parseArgs as je}from"node:util";var Le=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function ne(e,t){let{values:r}=je({args:e,options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}},strict:!0});if(r.help)return t.stdout(`${Le}
`),p.pass;let s=r.repo??".";if(r.profile!==void 0&&r.profile!=="strict"&&r.profile!=="claude-code")throw new f(`--profile must be strict or claude-code (got \`${r.profile}\`)`);let a=[],o=r.profile??"claude-code",n,d,c;try{let{config:i}=q(s,r.config);!r.profile&&i.profile&&(o=i.profile),n=i.skills?.globs,d=i.skills?.include,c=i.skills?.exclude}catch(i){if(!(i instanceof f)||i.diagnostics.length===0)throw i;a.push(...i.diagnostics)}r.glob?.length&&(n=r.glob);let u=_(s,{profile:o,globs:n,include:d,exclude:c,assertionTypes:D(M)});a.push(...u.diagnostics,...K(u.skills));let m=a.filter(i=>i.severity==="error").length,l=a.length-m;if(r.json)t.stdout(`${JSON.stringify({profile:o,skills:u.skills.map(i=>({name:i.name,path:i.path,suite:i.suite?.root??null,cases:i.suite?.cases.length??0,triggerQueries:(i.suite?.trigger?.shouldFire.length??0)+(i.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:a,errors:m,warnings:l},null,2)}
`);else{for(let g of a)t.stdout(`${v(g)}
`);let i=u.skills.filter(g=>g.suite).length;t.stdout(`${u.skills.length} skill(s), ${i} suite(s) checked under the ${o} profile: ${m} error(s), ${l} warning(s)
`)}return m>0?p.usage:p.pass}var ae={run:ie,validate:ne,init:Z,merge:ee,gate:H};var le={stdout:e=>process.stdout.write(e),stderr:e=>process.stderr.write(e)};var de=`skillgate ${E} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ce(e,t=le){let[r,...s]=e;if(!r||r==="help"||r==="--help"||r==="-h")return t.stdout(`${de}
`),r?p.pass:p.usage;if(r==="--version"||r==="-v")return t.stdout(`${E}
`),p.pass;let a=ae[r];if(!a)return t.stderr(`skillgate: unknown command \`${r}\`

${de}
`),p.usage;try{return await a(s,t)}catch(o){return Ne(o,t)}}function Ne(e,t){if(e instanceof f){t.stderr(`skillgate: ${e.message}
`);for(let s of e.diagnostics)t.stderr(`${v(s)}
`);return p.usage}let r=e.code;return typeof r=="string"&&r.startsWith("ERR_PARSE_ARGS")?(t.stderr(`skillgate: ${e.message}
`),p.usage):(t.stderr(`skillgate: error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&t.stderr(`${e?.stack??""}
`),p.error)}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await ce(process.argv.slice(2));
