#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{d as ne}from"./chunk-4YACVZ3F.js";import{a as L,b as ie}from"./chunk-4EIYINA6.js";import{a as te,b as oe,c as re,d as se,e as ae,f as le}from"./chunk-KQHO5TXI.js";import"./chunk-S5VD56SW.js";import{a as S,b as q,c as X,d as E,e as p,f as R}from"./chunk-EJDXDWB6.js";import{e as A}from"./chunk-4VK6G6TN.js";import{a as Y,c as B}from"./chunk-SO6UQH2Q.js";import{a as z,b as Z,c as ee,g as x}from"./chunk-OOCIYRDP.js";import{b as H,h as Q}from"./chunk-NSHPOJ4X.js";import"./chunk-VNSQVZP5.js";import{a as I,b as O,c as m}from"./chunk-CVMT22CO.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import"./chunk-7DPULHG4.js";import{f as y}from"./chunk-3FARLHVF.js";import"./chunk-NPDMPLWO.js";import{existsSync as Ne,statSync as je}from"node:fs";import{resolve as Ae}from"node:path";import{parseArgs as xe}from"node:util";function Re(e,o){let t=Array.from({length:o.length+1},(r,s)=>s);for(let r=1;r<=e.length;r++){let s=t[0];t[0]=r;for(let i=1;i<=o.length;i++){let l=t[i];t[i]=Math.min(t[i]+1,t[i-1]+1,s+(e[r-1]===o[i-1]?0:1)),s=l}}return t[o.length]}function k(e,o){let t,r=Number.POSITIVE_INFINITY;for(let s of o){let i=s.startsWith(e)||e.startsWith(s)?1:Re(e,s);i<r&&(t=s,r=i)}return t!==void 0&&r<=Math.max(2,Math.floor(e.length/3))?` (did you mean ${t}?)`:""}function Ce(e,o){let t=Object.entries(o).flatMap(([s,i])=>[`--${s}`,...i.short?[`-${i.short}`]:[]]),r=/'([^']+)'/.exec(e.message)?.[1]??"";switch(e.code){case"ERR_PARSE_ARGS_UNKNOWN_OPTION":return`unknown option ${r}${k(r,t)}`;case"ERR_PARSE_ARGS_INVALID_OPTION_VALUE":{let s=/(--?[\w-]+)/.exec(e.message)?.[1]??r;return o[s.replace(/^-+/,"")]?.type==="boolean"?`option ${s} takes no value`:`option ${s} needs a value`}case"ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":return`unexpected argument ${r}`;default:return e.message}}function h(e,o){try{return xe({...o,args:e,strict:!0})}catch(t){let r=t;throw typeof r.code=="string"&&r.code.startsWith("ERR_PARSE_ARGS")?new m(Ce(r,o.options)):t}}var de=42,D=`Usage: skillgate gate <gate-id> <module> [options]

Runs one deterministic gate on the module an agent wrote, in the sandbox; prints each check.

  --export NAME     the function to test (default: the name the gate expects, e.g. allocate for conservation)
  --options JSON    the gate's options, a JSON object
  --seed N          seed of the property-based probes (default ${de}); printed with a replay line
  --timeout MS      time limit of the sandboxed run
  --memory MB       memory limit of the sandboxed run
  --json            print the result as JSON

Gates: ${L.join(", ")}
Exit codes: 0 pass, 1 fail, 2 usage error.`;function T(e,o,t){if(e===void 0)return;let r=Number(e);if(!/^\d+$/.test(e)||!Number.isSafeInteger(r)||r>t)throw new m(`--${o} must be an integer from 0 to ${t} (got '${e}')`);return r}async function ce(e,o){let{values:t,positionals:r}=h(e,{allowPositionals:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${D}
`),0;let[s,i,...l]=r;if(!s||!i)throw new m("expected a gate id and a module path");if(l.length)throw new m(`unexpected argument '${l[0]}'`);if(!ie(s))throw new m(`unknown gate '${s}'${k(s,L)}`);let n=Ae(i);if(!Ne(n)||!je(n).isFile())throw new m(`module ${i}: no such file (${n})`);let c;if(t.options!==void 0){try{c=JSON.parse(t.options)}catch(f){throw new m(`--options is not valid JSON: ${f.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))throw new m("--options must be a JSON object")}let u=T(t.seed,"seed",2**31-1)??de,g=T(t.timeout,"timeout",36e5),d=T(t.memory,"memory",65536),a=await ne(s,i,{export:t.export,options:c,seed:u,timeoutMs:g,memoryMb:d});if(t.json)o.stdout(`${JSON.stringify(a,null,2)}
`);else{o.stdout(`${a.passed?"PASS":"FAIL"} ${a.gate} ${i} (seed ${a.seed})
`);for(let f of a.checks)o.stdout(`  ${f.passed?"\u2713":"\u2717"} ${f.id}: ${f.message}
`);a.passed||o.stdout(`replay: skillgate gate ${s} ${i} --seed ${a.seed}${t.export?` --export ${t.export}`:""}${t.options?` --options '${t.options}'`:""}
`)}return a.passed?0:1}import{existsSync as C,mkdirSync as Le,readFileSync as Te,statSync as De,writeFileSync as Fe}from"node:fs";import{basename as Pe,dirname as me,join as $,relative as F,resolve as ge}from"node:path";var P=`Usage: skillgate init SKILL [options]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md): evals/meta.json,
evals/prompts/example.yaml (one case with a discriminator) and evals/trigger-eval.json. What only you can
write is left as TODO-\u2026 keys that \`skillgate validate\` rejects, at their lines, until you replace them.

  --repo DIR    repository root (default .)
  --force       overwrite an existing scaffold

Exit codes: 0 done, 2 usage error.`,pe=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function fe(e,o){let{values:t,positionals:r}=h(e,{options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0});if(t.help)return o.stdout(`${P}
`),p.pass;if(r.length!==1)throw new m(r.length?`expected one skill, got ${r.length}`:"expected a skill");let s=ge(t.repo??"."),i=_e(s,r[0]),l=$(i,"SKILL.md"),n=F(s,l).split("\\").join("/"),c=oe(n,Te(l,"utf8"),"claude-code"),u=c.name??Pe(i),g=c.version??"1",d=$(i,"evals"),a={"meta.json":`${JSON.stringify({skillVersion:g,suiteVersion:"1",trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${u} suite; add more files like this one in prompts/.
# A discriminator (id starting D:) forbids the single most tempting wrong answer an agent gives without the
# skill: test for the absence of that answer, not for one exact right answer.
# Replace each TODO- key with the key it names (\`skillgate validate\` rejects the file until you do):
#   TODO-prompt -> prompt: a realistic task where an agent without ${u} confidently answers wrong
#   TODO-value  -> value:  that wrong answer (the discriminator fails when the output contains it)
id: example
TODO-prompt: "a realistic task where an agent without the ${u} skill confidently answers wrong"
assertions:
  - id: D:avoids-the-tempting-wrong-answer
    type: not-contains
    TODO-value: "the wrong answer an agent gives without the skill"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({"TODO-shouldFire":[{prompt:`a request that should make the agent load ${u}`},{prompt:"another one, worded the way your users ask"}],"TODO-shouldNotFire":[{prompt:`a near miss: close to ${u}'s topic, but another skill's or none`},{prompt:"another near miss"}]},null,2)}
`},f=Object.keys(a).filter(b=>C($(d,b)));if(f.length&&!t.force)throw new m(`${F(s,d)} already has ${f.join(", ")}; pass --force to overwrite`);for(let[b,Ee]of Object.entries(a))Le(me($(d,b)),{recursive:!0}),Fe($(d,b),Ee),o.stdout(`created ${F(s,$(d,b)).split("\\").join("/")}
`);let V=t.repo===void 0?"":` --repo ${ue(t.repo)}`;return o.stdout(["","Next steps:","  1. Replace the TODO- keys in prompts/example.yaml and trigger-eval.json; validate shows where each one is:",`       skillgate validate${V}`,"  2. Run the suite against your agent (here Claude Code: `claude` on PATH and ANTHROPIC_API_KEY set):",`       skillgate run${V} --skills ${ue(u)} --agent claude-code`,""].join(`
`)),p.pass}function ue(e){return/^[\w@%+=:,./-]+$/.test(e)?e:`'${e.replace(/'/g,"'\\''")}'`}function _e(e,o){let t=ge(e,o);if(C(t)){let r=De(t).isDirectory()?t:me(t);if(C($(r,"SKILL.md")))return r}for(let r of pe){let s=$(e,r,o);if(C($(s,"SKILL.md")))return s}throw new m(`no skill \`${o}\`: looked for ${o}/SKILL.md and ${pe.map(r=>`${r}/${o}/SKILL.md`).join(", ")}`)}import{writeFile as N}from"node:fs/promises";var _=`Usage: skillgate merge REPORT|DIR... [options]

Combines shard reports into one (a missing or failed shard makes the verdict error).
Without --json the merged report is printed on stdout.

  --json FILE       write the merged JSON report
  --junit FILE      write JUnit XML
  --sarif FILE      write SARIF 2.1.0
  --markdown FILE   write the Markdown summary

Exit codes: 0 pass, 1 fail, 2 usage error, 3 error.`,Ue=512*1024;async function he(e,o){let{values:t,positionals:r}=h(e,{allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${_}
`),p.pass;if(r.length===0)throw new m("no report given");let s=q(await X(r)),i=`${JSON.stringify(s,null,2)}
`;t.json?await N(t.json,i):o.stdout(i),t.junit&&await N(t.junit,S(s)),t.sarif&&await N(t.sarif,E(s)),t.markdown&&await N(t.markdown,B(s,{maxChars:Ue,fullReportHint:t.json??"the JSON report",charts:!0}));for(let l of s.errors)o.stderr(`skillgate merge: ${l}
`);return o.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),R(s.verdict)}import{mkdir as Ge,writeFile as Me}from"node:fs/promises";import{dirname as Je,resolve as Ke}from"node:path";import{parseArgs as We}from"node:util";function j(e={}){let o=e.stream??process.stderr,t=!!o.isTTY,r=!1,s=0,i=()=>{t&&r&&(o.write("\r\x1B[K"),r=!1)},l=n=>{i(),o.write(`${y(n)}
`)};return{info:n=>!e.quiet&&l(n),warn:n=>l(`warning: ${n}`),error:n=>l(`error: ${n}`),debug:n=>e.verbose&&l(n),group:async(n,c)=>c(),progress(n){if(e.quiet)return;let c=`trials ${n.done}/${n.total}  errors ${n.errors}  cache hits ${n.cacheHits}  cost $${n.costUsd.toFixed(4)}`;t?(o.write(`\r\x1B[K${c}`),r=n.done<n.total,r||o.write(`
`)):(n.done===n.total||Date.now()-s>5e3)&&(s=Date.now(),o.write(`${c}
`))}}}var U=`Usage: skillgate plan [options]

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
2 usage or configuration error.`;async function $e(e,o){let{values:t}=We({args:e,options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},help:{type:"boolean",short:"h"}},strict:!0});if(t.help)return o.stdout(`${U}
`),p.pass;let r=await x({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,noCache:t["no-cache"],config:t.config},j({quiet:!0})),{forecast:s,scope:i}=await le(r);if(o.stdout(`${[i.message,...Q(s)].join(`
`)}
`),t.json){let l=Ke(t.json);await Ge(Je(l),{recursive:!0}),await Me(l,`${JSON.stringify({scope:i,forecast:s},null,2)}
`)}return s.overBudget?p.error:p.pass}import{mkdir as Ye,writeFile as Be}from"node:fs/promises";import{dirname as He}from"node:path";var Ve=15,ye={pass:"PASS",fail:"FAIL",error:"ERROR"};function we(e,o){let t=Xe(o.color),r=[],s=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;r.push(`${s(t.bold(`skillgate: ${ye[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${Y(e)}, seed ${e.seed}]`),e.scope&&r.push(`  ${e.scope.message}`),e.base&&r.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}${e.base.tip&&e.base.sha?` (merge base ${e.base.sha.slice(0,12)}; the base ref is now at ${e.base.tip.slice(0,12)})`:""}`)),r.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));let i=e.isolation;i&&i.level===i.required?r.push(t.dim(`  isolation: ${i.level}`)):i&&r.push(t.yellow(t.bold(`  WARNING isolation: ${i.level}, weaker than ${i.required}${i.weakerAccepted==="config"?" (accepted by the config's isolation.allowWeaker)":""}: ${i.reason}`)));for(let n of e.policy.roots)r.push(...M(n,n.blocking?t.red:t.dim,t));for(let n of e.errors)r.push(t.yellow(`  error: ${n}`));for(let n of e.skills)r.push("",...qe(n,t,o));let l=e.diagnostics.filter(n=>n.severity==="error");if(l.length){r.push("",t.bold("Validation errors"));for(let n of l)r.push(`  ${n.file}:${n.line}:${n.column}: ${n.message}`)}return r.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${r.join(`
`)}
`}function qe(e,o,t){let r=[],s=e.verdict==="pass"?o.green:e.verdict==="fail"?o.red:o.yellow;r.push(`${s(ye[e.verdict].padEnd(5))} ${o.bold(e.name)} ${o.dim(`(${e.change}, ${e.path})`)}`);let i=e.discriminator;if(i){let d=e.base?.discriminator;r.push(`      discriminator pass rate  skill ${w(i.skill.discriminatorPassRate)}  baseline ${w(i.baseline.discriminatorPassRate)}  lift ${G(i.discriminatorLift)}`+(d?o.dim(`  (base: skill ${w(d.skill.discriminatorPassRate)}, lift ${G(d.discriminatorLift)})`):"")),r.push(`      overall pass rate        skill ${w(i.skill.passRate)}  baseline ${w(i.baseline.passRate)}  lift ${G(i.lift)}`),i.styleGuideNotGuardrail&&r.push(o.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let l=e.trigger;if(l){let d=e.base?.trigger;r.push(`      trigger${l.proxy?` (${l.router} proxy)`:""}  precision ${w(l.precision)}  recall ${w(l.recall)}  F1 ${l.f1.toFixed(2)}`+(d?o.dim(`  (base: precision ${v(d.precision.rate)}, recall ${v(d.recall.rate)})`):""));for(let a of l.warnings)r.push(o.yellow(`      ${a}`))}let n=new Map;for(let d of e.gates.filter(a=>!a.passed)){let a=`gate ${d.gate} failed on ${d.module} (${d.caseId}/${d.assertionId})`;n.set(a,(n.get(a)??0)+1)}for(let[d,a]of[...n].slice(0,5))r.push(`      ${d}${a>1?` in ${a} trials`:""}`);let c=e.roots.filter(d=>d.blocking),u=e.roots.filter(d=>!d.blocking),g=t.verbose?Number.POSITIVE_INFINITY:Ve;for(let d of c.slice(0,g))r.push(...M(d,o.red,o));if(c.length>g&&r.push(o.red(`      \u2026 ${c.length-g} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let d of u.slice(0,g))r.push(...M(d,o.dim,o));u.length>g&&r.push(o.dim(`      \u2026 ${u.length-g} more root(s)`))}for(let d of e.reasons.slice(0,6))r.push(o.dim(`      \xB7 ${d}`));return r}function M(e,o,t){let r=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",s=[o(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${r}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&s.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),s}function w(e){return`${v(e.rate)} [${v(e.low)}\u2013${v(e.high)}] (${e.passed}/${e.total})`}function v(e){return`${Math.round(e*100)}%`}function G(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Xe(e){let o=t=>r=>e?`\x1B[${t}m${r}\x1B[0m`:r;return{red:o(31),green:o(32),yellow:o(33),dim:o(2),bold:o(1)}}var J=`Usage: skillgate run [options]

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
  --quiet, --verbose, --no-color

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function be(e,o){let{values:t}=h(e,{options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${J}
`),0;let r=j({quiet:t.quiet,verbose:t.verbose}),s=await x({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},r),i=await ae(s),l=async(c,u)=>{c&&(await Ye(He(c),{recursive:!0}),await Be(c,y(u)))};await l(s.outputs.json,`${JSON.stringify(i,null,2)}
`),await l(s.outputs.junit,S(i)),await l(s.outputs.sarif,E(i));let n=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return o.stdout(we(i,{color:n,verbose:t.verbose})),R(i.verdict)}function ke(e,o){let t=o?ee(e,o):void 0,r=o&&!t?Z(o):z({kind:"dir",dir:e},t,"the checkout");return{config:r.config,...r.file?{file:r.file}:{}}}var K=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function ve(e,o){let{values:t}=h(e,{options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${K}
`),p.pass;let r=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new m(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let s=[],i=t.profile??"claude-code",l,n,c;try{let{config:a}=ke(r,t.config);!t.profile&&a.profile&&(i=a.profile),l=a.skills?.globs,n=a.skills?.include,c=a.skills?.exclude}catch(a){if(!(a instanceof O)||a.diagnostics.length===0)throw a;s.push(...a.diagnostics)}t.glob?.length&&(l=t.glob);let u=re(r,{profile:i,globs:l,include:n,exclude:c,assertionTypes:te(se)});s.push(...u.diagnostics,...H(u.skills));let g=s.filter(a=>a.severity==="error").length,d=s.length-g;if(t.json)o.stdout(`${JSON.stringify({profile:i,skills:u.skills.map(a=>({name:a.name,path:a.path,suite:a.suite?.root??null,cases:a.suite?.cases.length??0,triggerQueries:(a.suite?.trigger?.shouldFire.length??0)+(a.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:s,errors:g,warnings:d},null,2)}
`);else{for(let f of s)o.stdout(`${I(f)}
`);let a=u.skills.filter(f=>f.suite).length;o.stdout(`${u.skills.length} skill(s), ${a} suite(s) checked under the ${i} profile: ${g} error(s), ${d} warning(s)
`)}return g>0?p.usage:p.pass}var W={run:{run:be,usage:J},plan:{run:$e,usage:U},validate:{run:ve,usage:K},init:{run:fe,usage:P},merge:{run:he,usage:_},gate:{run:ce,usage:D}};var Ie={stdout:e=>process.stdout.write(y(e)),stderr:e=>process.stderr.write(y(e))};var Oe=`skillgate ${A} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  plan       say what \`run\` would run and spend (trials, cache hits, agent calls, USD), running nothing
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function Se(e,o=Ie){let[t,...r]=e;if(!t||t==="help"||t==="--help"||t==="-h")return o.stdout(`${Oe}
`),t?p.pass:p.usage;if(t==="--version"||t==="-v")return o.stdout(`${A}
`),p.pass;let s=W[t];if(!s){let i=Object.keys(W);return o.stderr(`skillgate: unknown command \`${t}\`${t.startsWith("-")?"":k(t,i)}

${Oe}
`),p.usage}try{return await s.run(r,o)}catch(i){return Qe(i,o,{name:t,usage:s.usage})}}function Qe(e,o,t){let r=`skillgate ${t.name}:`;if(e instanceof m)return o.stderr(`${r} ${e.message}

${t.usage}
`),p.usage;if(e instanceof O){o.stderr(`${r} ${e.message}
`);for(let s of e.diagnostics)o.stderr(`${I(s)}
`);return p.usage}return o.stderr(`${r} error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&o.stderr(`${e?.stack??""}
`),p.error}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await Se(process.argv.slice(2));
