#!/usr/bin/env node
import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{d as te}from"./chunk-ABDXK475.js";import{a as B,b as Q,c as z,d as Z,e as oe,f as re}from"./chunk-7Q4EIYVQ.js";import"./chunk-POHVBL2G.js";import{a as I,b as J,c as K,d as S,e as m,f as E}from"./chunk-MNMP32LC.js";import{a as C}from"./chunk-KLCHFWYS.js";import{a as V,c as W}from"./chunk-GYWAU2A6.js";import{a as q,b as X,c as Y,g as H}from"./chunk-H45ZCSYS.js";import"./chunk-65SS2MBK.js";import"./chunk-Y2U5MN52.js";import{a as v,b as O,c as u}from"./chunk-CVMT22CO.js";import"./chunk-G3RRVMSI.js";import"./chunk-QUZGGMSX.js";import{a as j,b as ee}from"./chunk-MDWT7ZK6.js";import"./chunk-MMRSHGP6.js";import"./chunk-NPDMPLWO.js";import{existsSync as Se,statSync as Ee}from"node:fs";import{resolve as xe}from"node:path";import{parseArgs as ve}from"node:util";function Oe(e,o){let t=Array.from({length:o.length+1},(r,s)=>s);for(let r=1;r<=e.length;r++){let s=t[0];t[0]=r;for(let i=1;i<=o.length;i++){let n=t[i];t[i]=Math.min(t[i]+1,t[i-1]+1,s+(e[r-1]===o[i-1]?0:1)),s=n}}return t[o.length]}function b(e,o){let t,r=Number.POSITIVE_INFINITY;for(let s of o){let i=s.startsWith(e)||e.startsWith(s)?1:Oe(e,s);i<r&&(t=s,r=i)}return t!==void 0&&r<=Math.max(2,Math.floor(e.length/3))?` (did you mean ${t}?)`:""}function Ie(e,o){let t=Object.entries(o).flatMap(([s,i])=>[`--${s}`,...i.short?[`-${i.short}`]:[]]),r=/'([^']+)'/.exec(e.message)?.[1]??"";switch(e.code){case"ERR_PARSE_ARGS_UNKNOWN_OPTION":return`unknown option ${r}${b(r,t)}`;case"ERR_PARSE_ARGS_INVALID_OPTION_VALUE":{let s=/(--?[\w-]+)/.exec(e.message)?.[1]??r;return o[s.replace(/^-+/,"")]?.type==="boolean"?`option ${s} takes no value`:`option ${s} needs a value`}case"ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":return`unexpected argument ${r}`;default:return e.message}}function h(e,o){try{return ve({...o,args:e,strict:!0})}catch(t){let r=t;throw typeof r.code=="string"&&r.code.startsWith("ERR_PARSE_ARGS")?new u(Ie(r,o.options)):t}}var se=42,N=`Usage: skillgate gate <gate-id> <module> [options]

Runs one deterministic gate on the module an agent wrote, in the sandbox; prints each check.

  --export NAME     the function to test (default: the name the gate expects, e.g. allocate for conservation)
  --options JSON    the gate's options, a JSON object
  --seed N          seed of the property-based probes (default ${se}); printed with a replay line
  --timeout MS      time limit of the sandboxed run
  --memory MB       memory limit of the sandboxed run
  --json            print the result as JSON

Gates: ${j.join(", ")}
Exit codes: 0 pass, 1 fail, 2 usage error.`;function L(e,o,t){if(e===void 0)return;let r=Number(e);if(!/^\d+$/.test(e)||!Number.isSafeInteger(r)||r>t)throw new u(`--${o} must be an integer from 0 to ${t} (got '${e}')`);return r}async function ie(e,o){let{values:t,positionals:r}=h(e,{allowPositionals:!0,options:{export:{type:"string"},options:{type:"string"},seed:{type:"string"},json:{type:"boolean"},timeout:{type:"string"},memory:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${N}
`),0;let[s,i,...n]=r;if(!s||!i)throw new u("expected a gate id and a module path");if(n.length)throw new u(`unexpected argument '${n[0]}'`);if(!ee(s))throw new u(`unknown gate '${s}'${b(s,j)}`);let l=xe(i);if(!Se(l)||!Ee(l).isFile())throw new u(`module ${i}: no such file (${l})`);let c;if(t.options!==void 0){try{c=JSON.parse(t.options)}catch(f){throw new u(`--options is not valid JSON: ${f.message}`)}if(c===null||typeof c!="object"||Array.isArray(c))throw new u("--options must be a JSON object")}let p=L(t.seed,"seed",2**31-1)??se,g=L(t.timeout,"timeout",36e5),d=L(t.memory,"memory",65536),a=await te(s,i,{export:t.export,options:c,seed:p,timeoutMs:g,memoryMb:d});if(t.json)o.stdout(`${JSON.stringify(a,null,2)}
`);else{o.stdout(`${a.passed?"PASS":"FAIL"} ${a.gate} ${i} (seed ${a.seed})
`);for(let f of a.checks)o.stdout(`  ${f.passed?"\u2713":"\u2717"} ${f.id}: ${f.message}
`);a.passed||o.stdout(`replay: skillgate gate ${s} ${i} --seed ${a.seed}${t.export?` --export ${t.export}`:""}${t.options?` --options '${t.options}'`:""}
`)}return a.passed?0:1}import{existsSync as x,mkdirSync as Re,readFileSync as Ce,statSync as je,writeFileSync as Le}from"node:fs";import{basename as Ne,dirname as le,join as $,relative as T,resolve as de}from"node:path";var A=`Usage: skillgate init SKILL [options]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md): evals/meta.json,
evals/prompts/example.yaml (one case with a discriminator) and evals/trigger-eval.json. What only you can
write is left as TODO-\u2026 keys that \`skillgate validate\` rejects, at their lines, until you replace them.

  --repo DIR    repository root (default .)
  --force       overwrite an existing scaffold

Exit codes: 0 done, 2 usage error.`,ne=[".claude/skills",".agents/skills",".github/skills",".agent/skills","skills"];async function ce(e,o){let{values:t,positionals:r}=h(e,{options:{repo:{type:"string"},force:{type:"boolean"},help:{type:"boolean",short:"h"}},allowPositionals:!0});if(t.help)return o.stdout(`${A}
`),m.pass;if(r.length!==1)throw new u(r.length?`expected one skill, got ${r.length}`:"expected a skill");let s=de(t.repo??"."),i=Te(s,r[0]),n=$(i,"SKILL.md"),l=T(s,n).split("\\").join("/"),c=Q(l,Ce(n,"utf8"),"claude-code"),p=c.name??Ne(i),g=c.version??"1",d=$(i,"evals"),a={"meta.json":`${JSON.stringify({skillVersion:g,suiteVersion:"1",trials:3,thresholds:{discriminatorPassRate:.8,discriminatorLift:.3,triggerPrecision:.8,triggerRecall:.8}},null,2)}
`,"prompts/example.yaml":`# One case of the ${p} suite; add more files like this one in prompts/.
# A discriminator (id starting D:) forbids the single most tempting wrong answer an agent gives without the
# skill: test for the absence of that answer, not for one exact right answer.
# Replace each TODO- key with the key it names (\`skillgate validate\` rejects the file until you do):
#   TODO-prompt -> prompt: a realistic task where an agent without ${p} confidently answers wrong
#   TODO-value  -> value:  that wrong answer (the discriminator fails when the output contains it)
id: example
TODO-prompt: "a realistic task where an agent without the ${p} skill confidently answers wrong"
assertions:
  - id: D:avoids-the-tempting-wrong-answer
    type: not-contains
    TODO-value: "the wrong answer an agent gives without the skill"
  - id: activated
    type: skill-used
`,"trigger-eval.json":`${JSON.stringify({"TODO-shouldFire":[{prompt:`a request that should make the agent load ${p}`},{prompt:"another one, worded the way your users ask"}],"TODO-shouldNotFire":[{prompt:`a near miss: close to ${p}'s topic, but another skill's or none`},{prompt:"another near miss"}]},null,2)}
`},f=Object.keys(a).filter(w=>x($(d,w)));if(f.length&&!t.force)throw new u(`${T(s,d)} already has ${f.join(", ")}; pass --force to overwrite`);for(let[w,ke]of Object.entries(a))Re(le($(d,w)),{recursive:!0}),Le($(d,w),ke),o.stdout(`created ${T(s,$(d,w)).split("\\").join("/")}
`);let M=t.repo===void 0?"":` --repo ${ae(t.repo)}`;return o.stdout(["","Next steps:","  1. Replace the TODO- keys in prompts/example.yaml and trigger-eval.json; validate shows where each one is:",`       skillgate validate${M}`,"  2. Run the suite against your agent (here Claude Code: `claude` on PATH and ANTHROPIC_API_KEY set):",`       skillgate run${M} --skills ${ae(p)} --agent claude-code`,""].join(`
`)),m.pass}function ae(e){return/^[\w@%+=:,./-]+$/.test(e)?e:`'${e.replace(/'/g,"'\\''")}'`}function Te(e,o){let t=de(e,o);if(x(t)){let r=je(t).isDirectory()?t:le(t);if(x($(r,"SKILL.md")))return r}for(let r of ne){let s=$(e,r,o);if(x($(s,"SKILL.md")))return s}throw new u(`no skill \`${o}\`: looked for ${o}/SKILL.md and ${ne.map(r=>`${r}/${o}/SKILL.md`).join(", ")}`)}import{writeFile as R}from"node:fs/promises";var D=`Usage: skillgate merge REPORT|DIR... [options]

Combines shard reports into one (a missing or failed shard makes the verdict error).
Without --json the merged report is printed on stdout.

  --json FILE       write the merged JSON report
  --junit FILE      write JUnit XML
  --sarif FILE      write SARIF 2.1.0
  --markdown FILE   write the Markdown summary

Exit codes: 0 pass, 1 fail, 2 usage error, 3 error.`,Ae=512*1024;async function pe(e,o){let{values:t,positionals:r}=h(e,{allowPositionals:!0,options:{json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},markdown:{type:"string"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${D}
`),m.pass;if(r.length===0)throw new u("no report given");let s=J(await K(r)),i=`${JSON.stringify(s,null,2)}
`;t.json?await R(t.json,i):o.stdout(i),t.junit&&await R(t.junit,I(s)),t.sarif&&await R(t.sarif,S(s)),t.markdown&&await R(t.markdown,W(s,{maxChars:Ae,fullReportHint:t.json??"the JSON report",charts:!0}));for(let n of s.errors)o.stderr(`skillgate merge: ${n}
`);return o.stderr(`skillgate merge: ${s.verdict} (${s.skills.length} skills, ${s.newRoots.length} new roots)
`),E(s.verdict)}import{mkdir as Fe,writeFile as Ue}from"node:fs/promises";import{dirname as Ge}from"node:path";var De=15,ue={pass:"PASS",fail:"FAIL",error:"ERROR"};function me(e,o){let t=_e(o.color),r=[],s=e.verdict==="pass"?t.green:e.verdict==="fail"?t.red:t.yellow;r.push(`${s(t.bold(`skillgate: ${ue[e.verdict]}`))}  ${e.skills.length} skill(s), ${e.blockingRoots.length} blocking root(s) (${e.newRoots.length} new)  [agent ${e.agent.adapter}, ${V(e)}, seed ${e.seed}]`),e.scope&&r.push(`  ${e.scope.message}`),e.base&&r.push(t.dim(`  base: ${e.base.ref??e.base.dir??e.base.sha??"?"}${e.base.tip&&e.base.sha?` (merge base ${e.base.sha.slice(0,12)}; the base ref is now at ${e.base.tip.slice(0,12)})`:""}`)),r.push(t.dim(`  policy: ${e.policy.origin}${e.policy.override?`; override: ${e.policy.override.by}`:""}`));for(let n of e.policy.roots)r.push(..._(n,n.blocking?t.red:t.dim,t));for(let n of e.errors)r.push(t.yellow(`  error: ${n}`));for(let n of e.skills)r.push("",...Pe(n,t,o));let i=e.diagnostics.filter(n=>n.severity==="error");if(i.length){r.push("",t.bold("Validation errors"));for(let n of i)r.push(`  ${n.file}:${n.line}:${n.column}: ${n.message}`)}return r.push("",t.dim(`failed checks ${e.stats.failedChecks} \u2192 roots ${e.stats.roots} (per trial: ${e.stats.meanFailedChecksPerTrial.toFixed(2)} failed checks \u2192 ${e.stats.meanRootsPerTrial.toFixed(2)} roots); agent calls ${e.cost.agentCalls}, cache hits ${e.cost.cacheHits}, cost $${e.cost.usd.toFixed(4)}; ${(e.durationMs/1e3).toFixed(1)} s`)),`${r.join(`
`)}
`}function Pe(e,o,t){let r=[],s=e.verdict==="pass"?o.green:e.verdict==="fail"?o.red:o.yellow;r.push(`${s(ue[e.verdict].padEnd(5))} ${o.bold(e.name)} ${o.dim(`(${e.change}, ${e.path})`)}`);let i=e.discriminator;if(i){let d=e.base?.discriminator;r.push(`      discriminator pass rate  skill ${y(i.skill.discriminatorPassRate)}  baseline ${y(i.baseline.discriminatorPassRate)}  lift ${P(i.discriminatorLift)}`+(d?o.dim(`  (base: skill ${y(d.skill.discriminatorPassRate)}, lift ${P(d.discriminatorLift)})`):"")),r.push(`      overall pass rate        skill ${y(i.skill.passRate)}  baseline ${y(i.baseline.passRate)}  lift ${P(i.lift)}`),i.styleGuideNotGuardrail&&r.push(o.yellow("      style guide, not a guardrail: overall lift without discriminator lift"))}let n=e.trigger;if(n){let d=e.base?.trigger;r.push(`      trigger${n.proxy?` (${n.router} proxy)`:""}  precision ${y(n.precision)}  recall ${y(n.recall)}  F1 ${n.f1.toFixed(2)}`+(d?o.dim(`  (base: precision ${k(d.precision.rate)}, recall ${k(d.recall.rate)})`):""));for(let a of n.warnings)r.push(o.yellow(`      ${a}`))}let l=new Map;for(let d of e.gates.filter(a=>!a.passed)){let a=`gate ${d.gate} failed on ${d.module} (${d.caseId}/${d.assertionId})`;l.set(a,(l.get(a)??0)+1)}for(let[d,a]of[...l].slice(0,5))r.push(`      ${d}${a>1?` in ${a} trials`:""}`);let c=e.roots.filter(d=>d.blocking),p=e.roots.filter(d=>!d.blocking),g=t.verbose?Number.POSITIVE_INFINITY:De;for(let d of c.slice(0,g))r.push(..._(d,o.red,o));if(c.length>g&&r.push(o.red(`      \u2026 ${c.length-g} more blocking root(s) (--verbose or the JSON report lists all)`)),t.verbose||e.verdict!=="pass"){for(let d of p.slice(0,g))r.push(..._(d,o.dim,o));p.length>g&&r.push(o.dim(`      \u2026 ${p.length-g} more root(s)`))}for(let d of e.reasons.slice(0,6))r.push(o.dim(`      \xB7 ${d}`));return r}function _(e,o,t){let r=e.head&&e.base?` head ${e.head.failed}/${e.head.trials} failed, base ${e.base.failed}/${e.base.trials}${e.pValue!==void 0?`, p=${e.pValue.toPrecision(2)}`:""}`:e.head?` head ${e.head.failed}/${e.head.trials} failed`:"",s=[o(`      ${e.status.toUpperCase()} ${e.kind} ${e.id}`)+t.dim(`  ${e.file}:${e.line}${r}`),`        ${e.message.split(`
`).join(`
        `)}`];return e.cascaded.length&&s.push(t.dim(`        cascaded: ${e.cascaded.slice(0,6).join(", ")}${e.cascaded.length>6?", \u2026":""}`)),s}function y(e){return`${k(e.rate)} [${k(e.low)}\u2013${k(e.high)}] (${e.passed}/${e.total})`}function k(e){return`${Math.round(e*100)}%`}function P(e){return`${e>=0?"+":""}${(e*100).toFixed(0)} pts`}function _e(e){let o=t=>r=>e?`\x1B[${t}m${r}\x1B[0m`:r;return{red:o(31),green:o(32),yellow:o(33),dim:o(2),bold:o(1)}}function ge(e={}){let o=e.stream??process.stderr,t=!!o.isTTY,r=!1,s=0,i=()=>{t&&r&&(o.write("\r\x1B[K"),r=!1)},n=l=>{i(),o.write(`${l}
`)};return{info:l=>!e.quiet&&n(l),warn:l=>n(`warning: ${l}`),error:l=>n(`error: ${l}`),debug:l=>e.verbose&&n(l),group:async(l,c)=>c(),progress(l){if(e.quiet)return;let c=`trials ${l.done}/${l.total}  errors ${l.errors}  cache hits ${l.cacheHits}  cost $${l.costUsd.toFixed(4)}`;t?(o.write(`\r\x1B[K${c}`),r=l.done<l.total,r||o.write(`
`)):(l.done===l.total||Date.now()-s>5e3)&&(s=Date.now(),o.write(`${c}
`))}}}var F=`Usage: skillgate run [options]

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

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function fe(e,o){let{values:t}=h(e,{options:{repo:{type:"string"},base:{type:"string"},"base-dir":{type:"string"},"base-report":{type:"string"},skills:{type:"string"},agent:{type:"string"},trials:{type:"string"},shard:{type:"string"},seed:{type:"string"},"no-cache":{type:"boolean"},config:{type:"string"},json:{type:"string"},junit:{type:"string"},sarif:{type:"string"},record:{type:"string"},"allow-weakening":{type:"boolean"},quiet:{type:"boolean",short:"q"},verbose:{type:"boolean"},"no-color":{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${F}
`),0;let r=ge({quiet:t.quiet,verbose:t.verbose}),s=await H({repo:t.repo,base:t.base,baseDir:t["base-dir"],baseReport:t["base-report"],skills:t.skills,agent:t.agent,trials:t.trials,shard:t.shard,seed:t.seed,noCache:t["no-cache"],config:t.config,json:t.json,junit:t.junit,sarif:t.sarif,record:t.record,...t["allow-weakening"]?{allowWeakening:{by:"--allow-weakening, given by the operator"}}:{}},r),i=await re(s),n=async(c,p)=>{c&&(await Fe(Ge(c),{recursive:!0}),await Ue(c,p))};await n(s.outputs.json,`${JSON.stringify(i,null,2)}
`),await n(s.outputs.junit,I(i)),await n(s.outputs.sarif,S(i));let l=!t["no-color"]&&!process.env.NO_COLOR&&!!process.stdout.isTTY;return o.stdout(me(i,{color:l,verbose:t.verbose})),E(i.verdict)}function he(e,o){let t=o?Y(e,o):void 0,r=o&&!t?X(o):q({kind:"dir",dir:e},t,"the checkout");return{config:r.config,...r.file?{file:r.file}:{}}}var U=`Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;async function $e(e,o){let{values:t}=h(e,{options:{repo:{type:"string"},config:{type:"string"},profile:{type:"string"},glob:{type:"string",multiple:!0},json:{type:"boolean"},help:{type:"boolean",short:"h"}}});if(t.help)return o.stdout(`${U}
`),m.pass;let r=t.repo??".";if(t.profile!==void 0&&t.profile!=="strict"&&t.profile!=="claude-code")throw new u(`--profile must be strict or claude-code (got \`${t.profile}\`)`);let s=[],i=t.profile??"claude-code",n,l,c;try{let{config:a}=he(r,t.config);!t.profile&&a.profile&&(i=a.profile),n=a.skills?.globs,l=a.skills?.include,c=a.skills?.exclude}catch(a){if(!(a instanceof O)||a.diagnostics.length===0)throw a;s.push(...a.diagnostics)}t.glob?.length&&(n=t.glob);let p=z(r,{profile:i,globs:n,include:l,exclude:c,assertionTypes:B(Z)});s.push(...p.diagnostics,...oe(p.skills));let g=s.filter(a=>a.severity==="error").length,d=s.length-g;if(t.json)o.stdout(`${JSON.stringify({profile:i,skills:p.skills.map(a=>({name:a.name,path:a.path,suite:a.suite?.root??null,cases:a.suite?.cases.length??0,triggerQueries:(a.suite?.trigger?.shouldFire.length??0)+(a.suite?.trigger?.shouldNotFire.length??0)})),diagnostics:s,errors:g,warnings:d},null,2)}
`);else{for(let f of s)o.stdout(`${v(f)}
`);let a=p.skills.filter(f=>f.suite).length;o.stdout(`${p.skills.length} skill(s), ${a} suite(s) checked under the ${i} profile: ${g} error(s), ${d} warning(s)
`)}return g>0?m.usage:m.pass}var G={run:{run:fe,usage:F},validate:{run:$e,usage:U},init:{run:ce,usage:A},merge:{run:pe,usage:D},gate:{run:ie,usage:N}};var ye={stdout:e=>process.stdout.write(e),stderr:e=>process.stderr.write(e)};var we=`skillgate ${C} \u2014 gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;async function be(e,o=ye){let[t,...r]=e;if(!t||t==="help"||t==="--help"||t==="-h")return o.stdout(`${we}
`),t?m.pass:m.usage;if(t==="--version"||t==="-v")return o.stdout(`${C}
`),m.pass;let s=G[t];if(!s){let i=Object.keys(G);return o.stderr(`skillgate: unknown command \`${t}\`${t.startsWith("-")?"":b(t,i)}

${we}
`),m.usage}try{return await s.run(r,o)}catch(i){return Me(i,o,{name:t,usage:s.usage})}}function Me(e,o,t){let r=`skillgate ${t.name}:`;if(e instanceof u)return o.stderr(`${r} ${e.message}

${t.usage}
`),m.usage;if(e instanceof O){o.stderr(`${r} ${e.message}
`);for(let s of e.diagnostics)o.stderr(`${v(s)}
`);return m.usage}return o.stderr(`${r} error: ${e?.message??String(e)}
`),process.env.SKILLGATE_DEBUG&&o.stderr(`${e?.stack??""}
`),m.error}process.stdout.on("error",e=>{throw e.code==="EPIPE"&&process.exit(process.exitCode??0),e});process.exitCode=await be(process.argv.slice(2));
