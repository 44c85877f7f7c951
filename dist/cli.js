#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{d as de}from"./chunk-YL45ZCBK.js";import"./chunk-7HUXRART.js";import"./chunk-Q7VMYUQM.js";import"./chunk-2NTZGRJK.js";import{a as j,b as se,c as N,d as ie,e as ne,f as L,g as ce,h as pe}from"./chunk-ZCJIXKPI.js";import{a as le}from"./chunk-OG4FD6PH.js";import{a as P,b as ae}from"./chunk-PSP3JVTI.js";import"./chunk-HJQC6KLS.js";import{a as E,b as B,c as H,d as x,e as u,f as C}from"./chunk-EJDXDWB6.js";import{d as D}from"./chunk-P4R277VQ.js";import{a as Q,c as z}from"./chunk-4DVBWHVM.js";import{a as te,b as oe,c as re,g as R}from"./chunk-KSQDWOQB.js";import{b as Z,h as ee}from"./chunk-OGFI45PI.js";import"./chunk-7YYJ4RBL.js";import"./chunk-VNSQVZP5.js";import{a as O,b as S,c as g}from"./chunk-CVMT22CO.js";import"./chunk-QUL5NW6M.js";import"./chunk-QZBJJMOK.js";import"./chunk-7DPULHG4.js";import{f as b}from"./chunk-3FARLHVF.js";import"./chunk-NPDMPLWO.js";import{existsSync as Le,statSync as Ae}from"node:fs";import{resolve as Te}from"node:path";import{parseArgs as Ce}from"node:util";function je(e,o){let t=Array.from({length:o.length+1},(r,s)=>s);for(let r=1;r<=e.length;r++){let s=t[0];t[0]=r;for(let i=1;i<=o.length;i++){let d=t[i];t[i]=Math.min(t[i]+1,t[i-1]+1,s+(e[r-1]===o[i-1]?0:1)),s=d}}return t[o.length]}function v(e,o){let t,r=Number.POSITIVE_INFINITY;for(let s of o){let i=s.startsWith(e)||e.startsWith(s)?1:je(e,s);i<r&&(t=s,r=i)}return t!==void 0&&r<=Math.max(2,Math.floor(e.length/3))?` (did you mean ${t}?)`:""}function Ne(e,o){let t=Object.entries(o).flatMap(([s,i])=>[`--${s}`,...i.short?[`-${i.short}`]:[]]),r=/'([^']+)'/.exec(e.message)?.[1]??"";switch(e.code){case"ERR_PARSE_ARGS_UNKNOWN_OPTION":return`unknown option ${r}${v(r,t)}`;case"ERR_PARSE_ARGS_INVALID_OPTION_VALUE":{let s=/(--?[\w-]+)/.exec(e.message)?.[1]??r;return o[s.replace(/^-+/,"")]?.type==="boolean"?`option ${s} takes no value`:`option ${s} needs a value`}case"ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":return`unexpected argument ${r}`;default:return e.message}}function y(e,o){try{return Ce({...o,args:e,strict:!0})}catch(t){let r=t;throw typeof r.code=="string"&&r.code.startsWith("ERR_PARSE_ARGS")?new g(Ne(r,o.options)):t}}var me=42,G=`Usage: skillgate gate <gate-id> <module> [options]

Runs one deterministic gate on the module an agent wrote, in the sandbox; prints each check.

  --export NAME     the function to test (default: the name the gate expects, e.g. allocate for conservation)
  --options JSON    the gate's options, a JSON object
  --seed N          seed of the property-based probes (default ${me}); printed with a replay line
  --timeout MS      time limit of the sandboxed run
  --memory MB       memory limit of the sandboxed run
  --json            print the result as JSON

Gates: ${P.join(", ")}
Exit codes: 0 pass, 1 fail, 2 usage error.`;function _(e,o,t){if(e===void 0)return;let r=Number(e);if(!/^\d+$/.test(e)||!Number.isSafeInteger(r)||r>t)throw new g(`--${o} must be an integer from 0 to ${t} (got '${e}')`);return r}async function ue(e,o){let{values:t,positionals:r}=y(e,{allowPositionals:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${G}
`),0;let[s,i,...d]=r;if(!s||!i)throw new g("expected a gate id and a module path");if(d.length)throw new g(`unexpected argument '${d[0]}'`);if(!ae(s))throw new g(`unknown gate '${s}'${v(s,P)}`);let n=Te(i);if(!Le(n)||!Ae(n).isFile())throw new g(`module ${i}: no such file (${n})`);let a;if(t.options!==void 0){try{a=JSON.parse(t.options)}catch(c){throw new g(`--options is not valid JSON: ${c.message}`)}if(a===null||typeof a!="object"||Array.isArray(a))throw new g("--options must be a JSON object");let $=le(s,a);if($.length)throw new g(`--options for gate ${s}: ${$.map(c=>`${c.path||"(options)"}: ${c.message}`).join("; ")}`)}let h=_(t.seed,"seed",2**31-1)??me,m=_(t.timeout,"timeout",36e5),l=_(t.memory,"memory",65536),p=await de(s,i,{export:t.export,options:a,seed:h,timeoutMs:m,memoryMb:l});if(t.json)o.stdout(`${JSON.stringify(p,null,2)}
`);else{o.stdout(`${p.passed?"PASS":"FAIL"} ${p.gate} ${i} (seed ${p.seed})
`);for(let $ of p.checks)o.stdout(`  ${$.passed?"\u2713":"\u2717"} ${$.id}: ${$.message}
`);p.passed||o.stdout(`replay: skillgate gate ${s} ${i} --seed ${p.seed}${t.export?` --export ${t.export}`:""}${t.options?` --options '${t.options}'`:""}
`)}return p.passed?0:1}import{existsSync as A,mkdirSync as Fe,readFileSync as De,statSync as Pe,writeFileSync as _e}from"node:fs";import{basename as Ge,dirname as fe,join as w,relative as U,resolve as he}from"node:path";var M=`Usage: skillgate init SKILL [options]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md): evals/meta.json,
evals/prompts/example.yaml (one case with a discriminator) and evals/trigger-eval.json. What only you can
write is left as TODO-\u2026 keys that \`skillgate validate\` rejects, at their lines, until you replace them.

  --repo DIR    repository root (default .)
  --force       overwrite an existing scaffold

Exit codes: 0 done, 2 usage error.`,Ue=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function $e(e,o){let{values:t,positionals:r}=y(e,{options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0});if(t.help)return o.stdout(`${M}
`),u.pass;if(r.length!==1)throw new g(r.length?`expected one skill, got ${r.length}`:"expected a skill");let s=he(t.repo??"."),i=Me(s,r[0]),d=w(i,"SKILL.md"),n=U(s,d).split("\\").join("/"),a=se(n,De(d,"utf8"),"claude-code"),h=a.name??Ge(i),m=a.version??"1",l=w(i,"evals"),p={"meta.json":`${JSON.stringify({skillVersion:m,suiteVersion:"1",trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${h} suite; add more files like this one in prompts/.
# A discriminator (id starting D:) forbids the single most tempting wrong answer an agent gives without the
# skill: test for the absence of that answer, not for one exact right answer.
# Replace each TODO- key with the key it names (\`skillgate validate\` rejects the file until you do):
#   TODO-prompt -> prompt: a realistic task where an agent without ${h} confidently answers wrong
#   TODO-value  -> value:  that wrong answer (the discriminator fails when the output contains it)
id: example
TODO-prompt: "a realistic task where an agent without the ${h} skill confidently answers wrong"
assertions:
  - id: D:avoids-the-tempting-wrong-answer
    type: not-contains
    TODO-value: "the wrong answer an agent gives without the skill"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({"TODO-shouldFire":[{prompt:`a request that should make the agent load ${h}`},{prompt:"another one, worded the way your users ask"}],"TODO-shouldNotFire":[{prompt:`a near miss: close to ${h}'s topic, but another skill's or none`},{prompt:"another near miss"}]},null,2)}
`},$=Object.keys(p).filter(f=>A(w(l,f)));if($.length&&!t.force)throw new g(`${U(s,l)} already has ${$.join(", ")}; pass --force to overwrite`);for(let[f,Re]of Object.entries(p))Fe(fe(w(l,f)),{recursive:!0}),_e(w(l,f),Re),o.stdout(`created ${U(s,w(l,f)).split("\\").join("/")}
`);let c=t.repo===void 0?"":` --repo ${ge(t.repo)}`;return o.stdout(["","Next steps:","  1. Replace the TODO- keys in prompts/example.yaml and trigger-eval.json; validate shows where each one is:",`       skillgate validate${c}`,"  2. Run the suite against your agent (here Claude Code: `claude` on PATH and ANTHROPIC_API_KEY set):",`       skillgate run${c} --skills ${ge(h)} --agent claude-code`,""].join(`
`)),u.pass}function ge(e){return/^[\w@%+=:,./-]+$/.test(e)?e:`'${e.replace(/'/g,"'\\''")}'`}function Me(e,o){let t=he(e,o);if(A(t)){let s=Pe(t).isDirectory()?t:fe(t);if(A(w(s,"SKILL.md")))return s}for(let s of Ue){let i=w(e,s,o);if(A(w(i,"SKILL.md")))return i}let r=N(e,{profile:"claude-code",assertionTypes:j(L)}).skills.filter(s=>s.name===o||s.name.endsWith(`:${o}`));if(r.length===1)return w(e,r[0].dir);throw new g(r.length>1?`\`${o}\` names ${r.length} skills (${r.map(s=>s.name).join(", ")}): give the full name or the folder`:`no skill \`${o}\`: no SKILL.md at ${o}/ and no skill of that name in the repository`)}import{writeFile as T}from"node:fs/promises";var J=`Usage: skillgate merge REPORT|DIR... [options]

Combines shard reports into one (a missing or failed shard makes the verdict error).
Without --json the merged report is printed on stdout.

  --json FILE       write the merged JSON report
  --junit FILE      write JUnit XML
  --sarif FILE      write SARIF 2.1.0
  --markdown FILE   write the Markdown summary

Exit codes: 0 pass, 1 fail, 2 usage error, 3 error.`,Je=512*1024;async function ye(e,o){let{values:t,positionals:r}=y(e,{allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${J}
`),u.pass;if(r.length===0)throw new g("no report given");let s=B(await H(r)),i=`${JSON.stringify(s,null,2)}
`;t.json?await T(t.json,i):o.stdout(i),t.junit&&await T(t.junit,E(s)),t.sarif&&await T(t.sarif,x(s)),t.markdown&&await T(t.markdown,z(s,{maxChars:Je,fullReportHint:t.json??"the JSON report",charts:!0}));for(let d of s.errors)o.stderr(`skillgate merge: ${d}
`);return o.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),C(s.verdict)}import{mkdir as Ke,writeFile as We}from"node:fs/promises";import{dirname as Ve,resolve as qe}from"node:path";function F(e={}){let o=e.stream??process.stderr,t=!!o.isTTY,r=!1,s=0,i=()=>{t&&r&&(o.write("\r\x1B[K"),r=!1)},d=n=>{i(),o.write(`${b(n)}
`)};return{info:n=>!e.quiet&&d(n),warn:n=>d(`warning: ${n}`),error:n=>d(`error: ${n}`),debug:n=>e.verbose&&d(n),group:async(n,a)=>a(),progress(n){if(e.quiet)return;let a=`trials ${n.done}/${n.total}  errors ${n.errors}  cache hits ${n.cacheHits}  cost $${n.costUsd.toFixed(4)}`;t?(o.write(`\r\x1B[K${a}`),r=n.done<n.total,r||o.write(`
`)):(n.done===n.total||Date.now()-s>5e3)&&(s=Date.now(),o.write(`${a}
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
2 usage or configuration error.`;async function we(e,o){let{values:t}=y(e,{options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},model:{type:"string"},trials:{type:"string"},shard:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${K}
`),u.pass;let r=await R({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,model:t.model,trials:t.trials,shard:t.shard,noCache:t["no-cache"],config:t.config},F({quiet:!0})),{forecast:s,scope:i}=await pe(r);if(o.stdout(`${[i.message,...ee(s)].join(`
`)}
`),t.json){let d=qe(t.json);await Ke(Ve(d),{recursive:!0}),await We(d,`${JSON.stringify({scope:i,forecast:s},null,2)}
`)}return s.overBudget?u.error:u.pass}import{mkdir as He,writeFile as Qe}from"node:fs/promises";import{dirname as ze}from"node:path";var Xe=15,be={pass:"PASS",fail:"FAIL",error:"ERROR"};function ke(e,o){let t=Be(o.color),r=[],s=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;r.push(`${s(t.bold(`skillgate: ${be[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${Q(e)}, seed ${e.seed}]`),e.scope&&r.push(`  ${e.scope.message}`),e.base&&r.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}${e.base.tip&&e.base.sha?` (merge base ${e.base.sha.slice(0,12)}; the base ref is now at ${e.base.tip.slice(0,12)})`:""}`)),r.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));let i=e.isolation,d=i?.resources?`; limits: ${i.resources.level}`:"";i&&i.level===i.required?r.push(t.dim(`  isolation: ${i.level}${d}`)):i&&r.push(t.yellow(t.bold(`  WARNING isolation: ${i.level}, weaker than ${i.required}${i.weakerAccepted==="config"?" (accepted by the config's isolation.allowWeaker)":""}: ${i.reason}${d}`)));for(let a of e.policy.roots)r.push(...V(a,a.blocking?t.red:t.dim,t));for(let a of e.errors)r.push(t.yellow(`  error: ${a}`));for(let a of e.skills)r.push("",...Ye(a,t,o));let n=e.diagnostics.filter(a=>a.severity==="error");if(n.length){r.push("",t.bold("Validation errors"));for(let a of n)r.push(`  ${a.file}:${a.line}:${a.column}: ${a.message}`)}return r.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${r.join(`
`)}
`}function Ye(e,o,t){let r=[],s=e.verdict==="pass"?o.green:e.verdict==="fail"?o.red:o.yellow;r.push(`${s(be[e.verdict].padEnd(5))} ${o.bold(e.name)} ${o.dim(`(${e.change}, ${e.path})`)}`);let i=e.discriminator;if(i){let l=e.base?.discriminator;r.push(`      discriminator pass rate  skill ${k(i.skill.discriminatorPassRate)}  baseline ${k(i.baseline.discriminatorPassRate)}  lift ${W(i.discriminatorLift)}`+(l?o.dim(`  (base: skill ${k(l.skill.discriminatorPassRate)}, lift ${W(l.discriminatorLift)})`):"")),r.push(`      overall pass rate        skill ${k(i.skill.passRate)}  baseline ${k(i.baseline.passRate)}  lift ${W(i.lift)}`),i.styleGuideNotGuardrail&&r.push(o.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let d=e.trigger;if(d){let l=e.base?.trigger;r.push(`      trigger${d.proxy?` (${d.router} proxy)`:""}  precision ${k(d.precision)}  recall ${k(d.recall)}  F1 ${d.f1.toFixed(2)}`+(l?o.dim(`  (base: precision ${I(l.precision.rate)}, recall ${I(l.recall.rate)})`):""));for(let p of d.warnings)r.push(o.yellow(`      ${p}`))}let n=new Map;for(let l of e.gates.filter(p=>!p.passed)){let p=`gate ${l.gate} failed on ${l.module} (${l.caseId}/${l.assertionId})`;n.set(p,(n.get(p)??0)+1)}for(let[l,p]of[...n].slice(0,5))r.push(`      ${l}${p>1?` in ${p} trials`:""}`);let a=e.roots.filter(l=>l.blocking),h=e.roots.filter(l=>!l.blocking),m=t.verbose?Number.POSITIVE_INFINITY:Xe;for(let l of a.slice(0,m))r.push(...V(l,o.red,o));if(a.length>m&&r.push(o.red(`      \u2026 ${a.length-m} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let l of h.slice(0,m))r.push(...V(l,o.dim,o));h.length>m&&r.push(o.dim(`      \u2026 ${h.length-m} more root(s)`))}for(let l of e.reasons.slice(0,6))r.push(o.dim(`      \xB7 ${l}`));return r}function V(e,o,t){let r=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",s=[o(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${r}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&s.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),s}function k(e){return`${I(e.rate)} [${I(e.low)}\u2013${I(e.high)}] (${e.passed}/${e.total})`}function I(e){return`${Math.round(e*100)}%`}function W(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function Be(e){let o=t=>r=>e?`\x1B[${t}m${r}\x1B[0m`:r;return{red:o(31),green:o(32),yellow:o(33),dim:o(2),bold:o(1)}}var q=`Usage: skillgate run [options]

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

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function ve(e,o){let{values:t}=y(e,{options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},skills:{type:"string"},agent:{type:"string"},model:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${q}
`),0;let r=F({quiet:t.quiet,verbose:t.verbose}),s=await R({repo:t.repo,base:t.base,baseDir:t["base-dir"],skills:t.skills,agent:t.agent,model:t.model,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},r),i=await ce(s),d=async(a,h)=>{a&&(await He(ze(a),{recursive:!0}),await Qe(a,b(h)))};await d(s.outputs.json,`${JSON.stringify(i,null,2)}
`),await d(s.outputs.junit,E(i)),await d(s.outputs.sarif,x(i));let n=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return o.stdout(ke(i,{color:n,verbose:t.verbose})),C(i.verdict)}function Ie(e,o){let t=o?re(e,o):void 0,r=o&&!t?oe(o):te({kind:"dir",dir:e},t,"the checkout");return{config:r.config,...r.file?{file:r.file}:{}}}var X=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function Oe(e,o){let{values:t}=y(e,{options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${X}
`),u.pass;let r=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new g(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let s=[],i=t.profile??"claude-code",d=!1,n,a,h;try{let{config:c}=Ie(r,t.config);!t.profile&&c.profile&&(i=c.profile),n=c.skills?.globs,d=c.judge!==void 0,a=c.skills?.include,h=c.skills?.exclude}catch(c){if(!(c instanceof S)||c.diagnostics.length===0)throw c;s.push(...c.diagnostics)}t.glob?.length&&(n=t.glob);let m=N(r,{profile:i,globs:n,include:a,exclude:h,assertionTypes:j(L)});s.push(...m.diagnostics,...Z(m.skills),...ne(m.outsideGlobs,void 0),...d?[]:ie(m.skills,"warning"));let l=s.filter(c=>c.severity==="error").length,p=s.filter(c=>c.severity==="warning").length,$=s.length-l-p;if(t.json){let c=m.skills.map(f=>({name:f.name,...f.namespace?{namespace:f.namespace}:{},layout:f.layout,path:f.path,suite:f.suite?.root??null,suiteFormats:f.suite?.formats??[],cases:f.suite?.cases.length??0,triggerQueries:(f.suite?.trigger?.shouldFire.length??0)+(f.suite?.trigger?.shouldNotFire.length??0)}));o.stdout(`${JSON.stringify({profile:i,listing:m.files.source,skills:c,outsideGlobs:m.outsideGlobs,diagnostics:s,errors:l,warnings:p,notices:$},null,2)}
`)}else{for(let f of s)o.stdout(`${O(f)}
`);let c=m.skills.filter(f=>f.suite).length;o.stdout(`${m.skills.length} skill(s), ${c} suite(s) checked under the ${i} profile: ${l} error(s), ${p} warning(s)${$?`, ${$} notice(s)`:""}
`)}return m.skills.length===0?(t.json||o.stdout(m.outsideGlobs.length>0?`no skill within the configured globs; ${m.outsideGlobs.length} SKILL.md file(s) lie outside them
`:`no skill found in ${r}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read)
`),u.usage):l>0?u.usage:u.pass}var Y={run:{run:ve,usage:q},plan:{run:we,usage:K},validate:{run:Oe,usage:X},init:{run:$e,usage:M},merge:{run:ye,usage:J},gate:{run:ue,usage:G}};var Se={stdout:e=>process.stdout.write(b(e)),stderr:e=>process.stderr.write(b(e))};var Ee=`skillgate ${D} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  plan       say what \`run\` would run and spend (trials, cache hits, agent calls, USD), running nothing
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function xe(e,o=Se){let[t,...r]=e;if(!t||t==="help"||t==="--help"||t==="-h")return o.stdout(`${Ee}
`),t?u.pass:u.usage;if(t==="--version"||t==="-v")return o.stdout(`${D}
`),u.pass;let s=Y[t];if(!s){let i=Object.keys(Y);return o.stderr(`skillgate: unknown command \`${t}\`${t.startsWith("-")?"":v(t,i)}

${Ee}
`),u.usage}try{return await s.run(r,o)}catch(i){return Ze(i,o,{name:t,usage:s.usage})}}function Ze(e,o,t){let r=`skillgate ${t.name}:`;if(e instanceof g)return o.stderr(`${r} ${e.message}

${t.usage}
`),u.usage;if(e instanceof S){o.stderr(`${r} ${e.message}
`);for(let s of e.diagnostics)o.stderr(`${O(s)}
`);return u.usage}return o.stderr(`${r} error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&o.stderr(`${e?.stack??""}
`),u.error}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await xe(process.argv.slice(2));
