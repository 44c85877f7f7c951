#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{d as ce}from"./chunk-Q76K7JY7.js";import"./chunk-KTSTJ564.js";import"./chunk-3MS6HJBZ.js";import"./chunk-2NTZGRJK.js";import{a as j,b as ie,c as N,d as ne,e as ae,f as A,g as ue,h as me}from"./chunk-6BOFQ4FC.js";import"./chunk-O5E77MXQ.js";import{a as de}from"./chunk-OG4FD6PH.js";import{a as P,b as le}from"./chunk-PSP3JVTI.js";import"./chunk-HJQC6KLS.js";import{a as E,b as H,c as Q,d as R,e as p,f as L}from"./chunk-ZYXW3YGY.js";import{d as _}from"./chunk-P4R277VQ.js";import{a as z,c as Z}from"./chunk-4DVBWHVM.js";import"./chunk-XUBNJI3B.js";import{a as re,b as oe,c as se,g as C}from"./chunk-IHLB2IME.js";import{b as ee,h as te}from"./chunk-EAVFVHSK.js";import"./chunk-7YYJ4RBL.js";import"./chunk-VNSQVZP5.js";import{a as O,b as x,c as g}from"./chunk-CVMT22CO.js";import"./chunk-QZBJJMOK.js";import"./chunk-XS4L33KL.js";import{f as k}from"./chunk-R7HY74Y5.js";import"./chunk-NPDMPLWO.js";import{existsSync as Fe,statSync as Te}from"node:fs";import{resolve as De}from"node:path";import{parseArgs as je}from"node:util";function Ne(e,r){let t=Array.from({length:r.length+1},(o,i)=>i);for(let o=1;o<=e.length;o++){let i=t[0];t[0]=o;for(let s=1;s<=r.length;s++){let n=t[s];t[s]=Math.min(t[s]+1,t[s-1]+1,i+(e[o-1]===r[s-1]?0:1)),i=n}}return t[r.length]}function I(e,r){let t,o=Number.POSITIVE_INFINITY;for(let i of r){let s=i.startsWith(e)||e.startsWith(i)?1:Ne(e,i);s<o&&(t=i,o=s)}return t!==void 0&&o<=Math.max(2,Math.floor(e.length/3))?` (did you mean ${t}?)`:""}function Ae(e,r){let t=Object.entries(r).flatMap(([i,s])=>[`--${i}`,...s.short?[`-${s.short}`]:[]]),o=/'([^']+)'/.exec(e.message)?.[1]??"";switch(e.code){case"ERR_PARSE_ARGS_UNKNOWN_OPTION":return`unknown option ${o}${I(o,t)}`;case"ERR_PARSE_ARGS_INVALID_OPTION_VALUE":{let i=/(--?[\w-]+)/.exec(e.message)?.[1]??o;return r[i.replace(/^-+/,"")]?.type==="boolean"?`option ${i} takes no value`:`option ${i} needs a value`}case"ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":return`unexpected argument ${o}`;default:return e.message}}function y(e,r){try{return je({...r,args:e,strict:!0})}catch(t){let o=t;throw typeof o.code=="string"&&o.code.startsWith("ERR_PARSE_ARGS")?new g(Ae(o,r.options)):t}}var pe=42,U=`Usage: skillgate gate <gate-id> <module> [options]

Runs one deterministic gate on the module an agent wrote, in the sandbox; prints each check.

  --export NAME     the function to test (default: the name the gate expects, e.g. allocate for conservation)
  --options JSON    the gate's options, a JSON object
  --seed N          seed of the property-based probes (default ${pe}); printed with a replay line
  --timeout MS      time limit of the sandboxed run
  --memory MB       memory limit of the sandboxed run
  --json            print the result as JSON

Gates: ${P.join(", ")}
Exit codes: 0 pass, 1 fail, 2 usage error.`;function G(e,r,t){if(e===void 0)return;let o=Number(e);if(!/^\d+$/.test(e)||!Number.isSafeInteger(o)||o>t)throw new g(`--${r} must be an integer from 0 to ${t} (got '${e}')`);return o}async function ge(e,r){let{values:t,positionals:o}=y(e,{allowPositionals:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return r.stdout(`${U}
`),0;let[i,s,...n]=o;if(!i||!s)throw new g("expected a gate id and a module path");if(n.length)throw new g(`unexpected argument '${n[0]}'`);if(!le(i))throw new g(`unknown gate '${i}'${I(i,P)}`);let a=De(s);if(!Fe(a)||!Te(a).isFile())throw new g(`module ${s}: no such file (${a})`);let l;if(t.options!==void 0){try{l=JSON.parse(t.options)}catch(w){throw new g(`--options is not valid JSON: ${w.message}`)}if(l===null||typeof l!="object"||Array.isArray(l))throw new g("--options must be a JSON object");let $=de(i,l);if($.length)throw new g(`--options for gate ${i}: ${$.map(w=>`${w.path||"(options)"}: ${w.message}`).join("; ")}`)}let f=G(t.seed,"seed",2**31-1)??pe,c=G(t.timeout,"timeout",36e5),d=G(t.memory,"memory",65536),u=await ce(i,s,{export:t.export,options:l,seed:f,timeoutMs:c,memoryMb:d});if(t.json)r.stdout(`${JSON.stringify(u,null,2)}
`);else{r.stdout(`${u.passed?"PASS":"FAIL"} ${u.gate} ${s} (seed ${u.seed})
`);for(let $ of u.checks)r.stdout(`  ${$.passed?"\u2713":"\u2717"} ${$.id}: ${$.message}
`);u.passed||r.stdout(`replay: skillgate gate ${i} ${s} --seed ${u.seed}${t.export?` --export ${t.export}`:""}${t.options?` --options '${t.options}'`:""}
`)}return u.passed?0:1}import{existsSync as F,mkdirSync as _e,readFileSync as Pe,statSync as Ge,writeFileSync as Ue}from"node:fs";import{basename as Me,dirname as he,join as b,relative as M,resolve as $e}from"node:path";var J=`Usage: skillgate init SKILL [options]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md): evals/meta.json,
evals/prompts/example.yaml (one case with a discriminator) and evals/trigger-eval.json. What only you can
write is left as TODO-\u2026 keys that \`skillgate validate\` rejects, at their lines, until you replace them.

  --repo DIR    repository root (default .)
  --force       overwrite an existing scaffold

Exit codes: 0 done, 2 usage error.`,Je=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function ye(e,r){let{values:t,positionals:o}=y(e,{options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0});if(t.help)return r.stdout(`${J}
`),p.pass;if(o.length!==1)throw new g(o.length?`expected one skill, got ${o.length}`:"expected a skill");let i=$e(t.repo??"."),s=Ve(i,o[0]),n=b(s,"SKILL.md"),a=M(i,n).split("\\").join("/"),l=ie(a,Pe(n,"utf8"),"claude-code"),f=l.name??Me(s),c=l.version??"1",d=b(s,"evals"),u={"meta.json":`${JSON.stringify({skillVersion:c,suiteVersion:"1",trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${f} suite; add more files like this one in prompts/.
# A discriminator (id starting D:) forbids the single most tempting wrong answer an agent gives without the
# skill: test for the absence of that answer, not for one exact right answer.
# Replace each TODO- key with the key it names (\`skillgate validate\` rejects the file until you do):
#   TODO-prompt -> prompt: a realistic task where an agent without ${f} confidently answers wrong
#   TODO-value  -> value:  that wrong answer (the discriminator fails when the output contains it)
id: example
TODO-prompt: "a realistic task where an agent without the ${f} skill confidently answers wrong"
assertions:
  - id: D:avoids-the-tempting-wrong-answer
    type: not-contains
    TODO-value: "the wrong answer an agent gives without the skill"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({"TODO-shouldFire":[{prompt:`a request that should make the agent load ${f}`},{prompt:"another one, worded the way your users ask"}],"TODO-shouldNotFire":[{prompt:`a near miss: close to ${f}'s topic, but another skill's or none`},{prompt:"another near miss"}]},null,2)}
`},$=Object.keys(u).filter(m=>F(b(d,m)));if($.length&&!t.force)throw new g(`${M(i,d)} already has ${$.join(", ")}; pass --force to overwrite`);for(let[m,h]of Object.entries(u))_e(he(b(d,m)),{recursive:!0}),Ue(b(d,m),h),r.stdout(`created ${M(i,b(d,m)).split("\\").join("/")}
`);let w=t.repo===void 0?"":` --repo ${fe(t.repo)}`;return r.stdout(["","Next steps:","  1. Replace the TODO- keys in prompts/example.yaml and trigger-eval.json; validate shows where each one is:",`       skillgate validate${w}`,"  2. Run the suite against your agent (here Claude Code: `claude` on PATH and ANTHROPIC_API_KEY set):",`       skillgate run${w} --skills ${fe(f)} --agent claude-code`,""].join(`
`)),p.pass}function fe(e){return/^[\w@%+=:,./-]+$/.test(e)?e:`'${e.replace(/'/g,"'\\''")}'`}function Ve(e,r){let t=$e(e,r);if(F(t)){let i=Ge(t).isDirectory()?t:he(t);if(F(b(i,"SKILL.md")))return i}for(let i of Je){let s=b(e,i,r);if(F(b(s,"SKILL.md")))return s}let o=N(e,{profile:"claude-code",assertionTypes:j(A)}).skills.filter(i=>i.name===r||i.name.endsWith(`:${r}`));if(o.length===1)return b(e,o[0].dir);throw new g(o.length>1?`\`${r}\` names ${o.length} skills (${o.map(i=>i.name).join(", ")}): give the full name or the folder`:`no skill \`${r}\`: no SKILL.md at ${r}/ and no skill of that name in the repository`)}import{writeFile as T}from"node:fs/promises";var V=`Usage: skillgate merge REPORT|DIR... [options]

Combines shard reports into one (a missing or failed shard makes the verdict error).
Without --json the merged report is printed on stdout.

  --json FILE       write the merged JSON report
  --junit FILE      write JUnit XML
  --sarif FILE      write SARIF 2.1.0
  --markdown FILE   write the Markdown summary

Exit codes: 0 pass, 1 fail, 2 usage error, 3 error.`,Ke=512*1024;async function we(e,r){let{values:t,positionals:o}=y(e,{allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return r.stdout(`${V}
`),p.pass;if(o.length===0)throw new g("no report given");let i=H(await Q(o)),s=`${JSON.stringify(i,null,2)}
`;t.json?await T(t.json,s):r.stdout(s),t.junit&&await T(t.junit,E(i)),t.sarif&&await T(t.sarif,R(i)),t.markdown&&await T(t.markdown,Z(i,{maxChars:Ke,fullReportHint:t.json??"the JSON report",charts:!0}));for(let n of i.errors)r.stderr(`skillgate merge: ${n}
`);return r.stderr(`skillgate merge: ${i.verdict} (${i.skills.length} skills, ${i.newRoots.length} new roots)
`),L(i.verdict)}import{mkdir as We,writeFile as qe}from"node:fs/promises";import{dirname as Xe,resolve as Ye}from"node:path";function D(e={}){let r=e.stream??process.stderr,t=!!r.isTTY,o=!1,i=0,s=()=>{t&&o&&(r.write("\r\x1B[K"),o=!1)},n=a=>{s(),r.write(`${k(a)}
`)};return{info:a=>!e.quiet&&n(a),warn:a=>n(`warning: ${a}`),error:a=>n(`error: ${a}`),debug:a=>e.verbose&&n(a),group:async(a,l)=>l(),progress(a){if(e.quiet)return;let l=`trials ${a.done}/${a.total}  errors ${a.errors}  cache hits ${a.cacheHits}  cost $${a.costUsd.toFixed(4)}`;t?(r.write(`\r\x1B[K${l}`),o=a.done<a.total,o||r.write(`
`)):(a.done===a.total||Date.now()-i>5e3)&&(i=Date.now(),r.write(`${l}
`))}}}var K=`Usage: skillgate plan [options]

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
  --no-cache          expect no cache hits
  --config FILE       configuration file, a path from --repo (default .skillgate.yml); one outside the
                      repository is the operator's own, and its relative command paths resolve from its folder
  --json FILE         write the forecast as JSON

Exit codes: 0 within budget, 3 the first trials alone would exceed the budget (run would stop before spending),
2 usage or configuration error.`;async function be(e,r){let{values:t}=y(e,{options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},model:{type:"string"},trials:{type:"string"},shard:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return r.stdout(`${K}
`),p.pass;let o=await C({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,model:t.model,trials:t.trials,shard:t.shard,noCache:t["no-cache"],config:t.config},D({quiet:!0})),{forecast:i,scope:s}=await me(o);if(r.stdout(`${[s.message,...te(i)].join(`
`)}
`),t.json){let n=Ye(t.json);await We(Xe(n),{recursive:!0}),await qe(n,`${JSON.stringify({scope:s,forecast:i},null,2)}
`)}return i.overBudget?p.error:p.pass}import{mkdir as ze,writeFile as Ze}from"node:fs/promises";import{dirname as et}from"node:path";var Be=15,ke={pass:"PASS",fail:"FAIL",error:"ERROR"};function ve(e,r){let t=Qe(r.color),o=[],i=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;o.push(`${i(t.bold(`skillgate: ${ke[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${z(e)}, seed ${e.seed}]`),e.scope&&o.push(`  ${e.scope.message}`),e.base&&o.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}${e.base.tip&&e.base.sha?` (merge base ${e.base.sha.slice(0,12)}; the base ref is now at ${e.base.tip.slice(0,12)})`:""}`)),o.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));let s=e.isolation,n=s?.resources?`; limits: ${s.resources.level}`:"";s&&s.level===s.required?o.push(t.dim(`  isolation: ${s.level}${n}`)):s&&o.push(t.yellow(t.bold(`  WARNING isolation: ${s.level}, weaker than ${s.required}${s.weakerAccepted==="config"?" (accepted by the config's isolation.allowWeaker)":""}: ${s.reason}${n}`)));for(let l of e.policy.roots)o.push(...q(l,l.blocking?t.red:t.dim,t));for(let l of e.errors)o.push(t.yellow(`  error: ${l}`));for(let l of e.skills)o.push("",...He(l,t,r));let a=e.diagnostics.filter(l=>l.severity==="error");if(a.length){o.push("",t.bold("Validation errors"));for(let l of a)o.push(`  ${l.file}:${l.line}:${l.column}: ${l.message}`)}return o.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${o.join(`
`)}
`}function He(e,r,t){let o=[],i=e.verdict==="pass"?r.green:e.verdict==="fail"?r.red:r.yellow;o.push(`${i(ke[e.verdict].padEnd(5))} ${r.bold(e.name)} ${r.dim(`(${e.change}, ${e.path})`)}`);let s=e.discriminator;if(s){let d=e.base?.discriminator;o.push(`      discriminator pass rate  skill ${v(s.skill.discriminatorPassRate)}  baseline ${v(s.baseline.discriminatorPassRate)}  lift ${W(s.discriminatorLift)}`+(d?r.dim(`  (base: skill ${v(d.skill.discriminatorPassRate)}, lift ${W(d.discriminatorLift)})`):"")),o.push(`      overall pass rate        skill ${v(s.skill.passRate)}  baseline ${v(s.baseline.passRate)}  lift ${W(s.lift)}`),s.styleGuideNotGuardrail&&o.push(r.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let n=e.trigger;if(n){let d=e.base?.trigger;o.push(`      trigger${n.proxy?` (${n.router} proxy)`:""}  precision ${v(n.precision)}  recall ${v(n.recall)}  F1 ${n.f1.toFixed(2)}`+(d?r.dim(`  (base: precision ${S(d.precision.rate)}, recall ${S(d.recall.rate)})`):""));for(let u of n.warnings)o.push(r.yellow(`      ${u}`))}let a=new Map;for(let d of e.gates.filter(u=>!u.passed)){let u=`gate ${d.gate} failed on ${d.module} (${d.caseId}/${d.assertionId})`;a.set(u,(a.get(u)??0)+1)}for(let[d,u]of[...a].slice(0,5))o.push(`      ${d}${u>1?` in ${u} trials`:""}`);let l=e.roots.filter(d=>d.blocking),f=e.roots.filter(d=>!d.blocking),c=t.verbose?Number.POSITIVE_INFINITY:Be;for(let d of l.slice(0,c))o.push(...q(d,r.red,r));if(l.length>c&&o.push(r.red(`      \u2026 ${l.length-c} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let d of f.slice(0,c))o.push(...q(d,r.dim,r));f.length>c&&o.push(r.dim(`      \u2026 ${f.length-c} more root(s)`))}for(let d of e.reasons.slice(0,6))o.push(r.dim(`      \xB7 ${d}`));return o}function q(e,r,t){let o=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",i=[r(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${o}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&i.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),i}function v(e){return`${S(e.rate)} [${S(e.low)}\u2013${S(e.high)}] (${e.passed}/${e.total})`}function S(e){return`${Math.round(e*100)}%`}function W(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Qe(e){let r=t=>o=>e?`\x1B[${t}m${o}\x1B[0m`:o;return{red:r(31),green:r(32),yellow:r(33),dim:r(2),bold:r(1)}}var X=`Usage: skillgate run [options]

Runs the batteries of the skills a change touches (or every skill), compares with the base, prints the verdict.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref (checked out in a temporary worktree)
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter (replay, claude-code, codex, command, openai, anthropic, lexical)
  --model NAME        the agent's model (agent.model), e.g. claude-sonnet-4-5 for --agent anthropic
  --trials N          trials per case and mode (default: meta.json, else 3)
  --shard I/N         evaluate only shard I of N (deterministic, balanced by expected cost)
  --seed N            seed of every randomised step (default 42); reported, replayable
  --no-cache          do not read or write the trial cache
  --config FILE       configuration file, a path from --repo (default .skillgate.yml); one outside the
                      repository is the operator's own, and its relative command paths resolve from its folder
  --json FILE         write the JSON report (and skill-creator exports to FILE's name + .skill-creator/)
  --junit FILE        write JUnit XML
  --sarif FILE        write SARIF (new roots as results with locations)
  --record DIR        write replay recordings of every trial run to DIR
  --allow-weakening   accept a weakened suite or policy: you, the operator, approve it (reported)
  --quiet, --verbose, --no-color

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function Ie(e,r){let{values:t}=y(e,{options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},model:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return r.stdout(`${X}
`),0;let o=D({quiet:t.quiet,verbose:t.verbose}),i=await C({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,model:t.model,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},o),s=await ue(i),n=async(l,f)=>{l&&(await ze(et(l),{recursive:!0}),await Ze(l,k(f)))};await n(i.outputs.json,`${JSON.stringify(s,null,2)}
`),await n(i.outputs.junit,E(s)),await n(i.outputs.sarif,R(s));let a=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return r.stdout(ve(s,{color:a,verbose:t.verbose})),L(s.verdict)}function Se(e,r){let t={error:[],warning:[],notice:[]};for(let s of["error","warning","notice"]){let n=new Map;for(let a of r)a.severity===s&&n.set(a.code,(n.get(a.code)??0)+1);t[s]=[...n].map(([a,l])=>({code:a,count:l})).sort((a,l)=>l.count-a.count||(a.code<l.code?-1:1))}let o=new Map;for(let s of r){if(s.severity==="notice")continue;let n=o.get(s.file)??{file:s.file,errors:0,warnings:0,first:""};s.severity==="error"?(n.errors===0&&(n.first=`${s.line}:${s.column} ${s.message}`),n.errors++):(n.errors===0&&n.warnings===0&&(n.first=`${s.line}:${s.column} ${s.message}`),n.warnings++),o.set(s.file,n)}let i=[...o.values()].sort((s,n)=>n.errors-s.errors||n.warnings-s.warnings||(s.file<n.file?-1:1)).slice(0,5);return{skills:e.length,suites:e.filter(s=>s.suite).length,runnableCases:e.reduce((s,n)=>s+(n.suite?.cases.length??0),0),triggerQueries:e.reduce((s,n)=>s+(n.suite?.trigger?n.suite.trigger.shouldFire.length+n.suite.trigger.shouldNotFire.length:0),0),partsLeftOut:e.reduce((s,n)=>s+new Set((n.suite?.partProblems??[]).map(tt)).size,0),byCode:t,fixFirst:i}}var tt=e=>`${e.part}:${e.caseId??e.diagnostic.file}`;function Oe(e){let r=(o,i)=>{let s=e.byCode[o];if(s.length===0)return[];let n=s.reduce((l,f)=>l+f.count,0),a=s.slice(0,6).map(l=>`${l.code} ${l.count}`);return[`  ${i} ${n}: ${a.join(", ")}${s.length>6?`, \u2026 (${s.length} kinds)`:""}`]},t=[`summary: ${e.skills} skill(s), ${e.suites} suite(s); run would evaluate ${e.runnableCases} case(s) and ${e.triggerQueries} trigger quer${e.triggerQueries===1?"y":"ies"}${e.partsLeftOut?`, leaving out ${e.partsLeftOut} broken or ungradable part(s) (an error of that part when a PR touches its skill)`:""}`,...r("error","errors"),...r("warning","warnings"),...r("notice","notices")];if(e.fixFirst.length>0){t.push("fix first:");for(let o of e.fixFirst)t.push(`  ${o.file}: ${[o.errors?`${o.errors} error(s)`:"",o.warnings?`${o.warnings} warning(s)`:""].filter(Boolean).join(", ")} \u2014 ${o.first}`)}return t}function xe(e,r){let t=r?se(e,r):void 0,o=r&&!t?oe(r):re({kind:"dir",dir:e},t,"the checkout");return{config:o.config,...o.file?{file:o.file}:{}}}var Y=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function Ee(e,r){let{values:t}=y(e,{options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return r.stdout(`${Y}
`),p.pass;let o=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new g(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let i=[],s=t.profile??"claude-code",n=!1,a,l,f;try{let{config:m}=xe(o,t.config);!t.profile&&m.profile&&(s=m.profile),a=m.skills?.globs,n=m.judge!==void 0,l=m.skills?.include,f=m.skills?.exclude}catch(m){if(!(m instanceof x)||m.diagnostics.length===0)throw m;i.push(...m.diagnostics)}t.glob?.length&&(a=t.glob);let c=N(o,{profile:s,globs:a,include:l,exclude:f,assertionTypes:j(A)});i.push(...c.diagnostics,...ee(c.skills),...ae(c.outsideGlobs,void 0),...n?[]:ne(c.skills));let d=i.filter(m=>m.severity==="error").length,u=i.filter(m=>m.severity==="warning").length,$=i.length-d-u,w=Se(c.skills,i);if(t.json){let m=c.skills.map(h=>({name:h.name,...h.namespace?{namespace:h.namespace}:{},layout:h.layout,path:h.path,suite:h.suite?.root??null,suiteFormats:h.suite?.formats??[],suiteFiles:h.suite?.sourceFiles??[],cases:h.suite?.cases.length??0,triggerQueries:(h.suite?.trigger?.shouldFire.length??0)+(h.suite?.trigger?.shouldNotFire.length??0)}));r.stdout(`${JSON.stringify({profile:s,listing:c.files.source,skills:m,outsideGlobs:c.outsideGlobs,diagnostics:i,errors:d,warnings:u,notices:$,summary:w},null,2)}
`)}else{for(let h of i)r.stdout(`${O(h)}
`);let m=c.skills.filter(h=>h.suite).length;c.skills.length>0&&r.stdout(`${Oe(w).join(`
`)}
`),r.stdout(`${c.skills.length} skill(s), ${m} suite(s) checked under the ${s} profile: ${d} error(s), ${u} warning(s)${$?`, ${$} notice(s)`:""}
`)}return c.skills.length===0?(t.json||r.stdout(c.outsideGlobs.length>0?`no skill within the configured globs; ${c.outsideGlobs.length} SKILL.md file(s) lie outside them
`:`no skill found in ${o}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read)
`),p.usage):d>0?p.usage:p.pass}var B={run:{run:Ie,usage:X},plan:{run:be,usage:K},validate:{run:Ee,usage:Y},init:{run:ye,usage:J},merge:{run:we,usage:V},gate:{run:ge,usage:U}};var Re={stdout:e=>process.stdout.write(k(e)),stderr:e=>process.stderr.write(k(e))};var Ce=`skillgate ${_} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  plan       say what \`run\` would run and spend (trials, cache hits, agent calls, USD), running nothing
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function Le(e,r=Re){let[t,...o]=e;if(!t||t==="help"||t==="--help"||t==="-h")return r.stdout(`${Ce}
`),t?p.pass:p.usage;if(t==="--version"||t==="-v")return r.stdout(`${_}
`),p.pass;let i=B[t];if(!i){let s=Object.keys(B);return r.stderr(`skillgate: unknown command \`${t}\`${t.startsWith("-")?"":I(t,s)}

${Ce}
`),p.usage}try{return await i.run(o,r)}catch(s){return rt(s,r,{name:t,usage:i.usage})}}function rt(e,r,t){let o=`skillgate ${t.name}:`;if(e instanceof g)return r.stderr(`${o} ${e.message}

${t.usage}
`),p.usage;if(e instanceof x){r.stderr(`${o} ${e.message}
`);for(let i of e.diagnostics)r.stderr(`${O(i)}
`);return p.usage}return r.stderr(`${o} error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&r.stderr(`${e?.stack??""}
`),p.error}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await Le(process.argv.slice(2));
