/**
 * The page's one stylesheet. Colours are chosen to pass WCAG AA (4.5:1 for text) as skillgate's own contrast gate
 * measures them (test/report/html-browser.test.ts runs it on the rendered page); no web font, no image.
 */
export const STYLE = `
:root{color-scheme:light;--fg:#1f2328;--muted:#57606a;--bg:#fff;--panel:#f6f8fa;--line:#d0d7de;--link:#0550ae;--focus:#0550ae}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,summary:focus-visible,select:focus-visible,input:focus-visible,button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-10000px;top:0;background:var(--bg);color:var(--link);padding:6px 10px}
.skip:focus{left:8px;z-index:10}
header.top{padding:10px 16px 4px;border-bottom:1px solid var(--line);background:var(--bg)}
header.top h1{font-size:18px;margin:0 0 4px}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px}
form.filters{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;padding:6px 16px;background:var(--panel);border-bottom:1px solid var(--line)}
form.filters label{display:flex;gap:4px;align-items:center;color:var(--fg)}
form.filters select,form.filters input{font:inherit;color:var(--fg);background:var(--bg);border:1px solid #6e7781;border-radius:4px;padding:2px 6px}
form.filters input[type=search]{width:16em}
main{padding:0 16px 40px;max-width:1600px}
section{margin-top:18px}
h2{font-size:17px;border-bottom:1px solid var(--line);padding-bottom:3px;margin:0 0 8px}
h3{font-size:15px;margin:10px 0 6px}
h4{font-size:13px;margin:0 0 4px}
h5{font-size:13px;margin:10px 0 2px}
p{margin:4px 0}
.muted{color:var(--muted)}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
pre{background:var(--panel);color:var(--fg);border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:2px 0 6px;white-space:pre-wrap;word-break:break-word;max-height:28em;overflow:auto}
pre.in{border-left:3px solid #0969da}
pre.out{border-left:3px solid #6e7781}
pre.err{border-left:3px solid #cf222e}
.headline{font-size:16px;font-weight:600;padding:8px 10px;border-radius:6px;margin:10px 0 6px;border:1px solid var(--line)}
.v-fail{background:#ffebe9;border-color:#ff8182}
.v-pass{background:#dafbe1;border-color:#4ac26b}
.v-error{background:#fff8c5;border-color:#d4a72c}
.alert{background:#fff8c5;border:1px solid #d4a72c;border-radius:4px;padding:4px 8px}
.badge{display:inline-block;font-size:12px;font-weight:600;line-height:18px;padding:0 6px;border-radius:9px;border:1px solid transparent;white-space:nowrap}
.b-fail,.b-new,.b-failing{background:#ffebe9;color:#82071e;border-color:#ff8182}
.b-pass{background:#dafbe1;color:#116329;border-color:#4ac26b}
.b-error,.b-warning{background:#fff8c5;color:#6c4400;border-color:#d4a72c}
.b-info,.b-other,.b-skipped,.b-notice{background:#ddf4ff;color:#0a3069;border-color:#54aeff}
.kind{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
dl.facts{display:flex;flex-wrap:wrap;gap:2px 18px;margin:6px 0}
dl.facts div{display:flex;gap:5px}
dl.facts dt{color:var(--muted);white-space:nowrap;overflow-wrap:normal}
dl.facts dd{margin:0}
ul.reasons{margin:4px 0;padding-left:18px}
article.root{border:1px solid var(--line);border-left:4px solid #6e7781;border-radius:6px;padding:6px 10px;margin:8px 0}
article.root.blocking{border-left-color:#cf222e}
article.root h3{margin:2px 0 4px}
.test{font-weight:600}
.msg{white-space:pre-wrap;word-break:break-word}
details{margin:4px 0}
summary{cursor:pointer;padding:2px 0}
.dag ul{margin:2px 0;padding-left:20px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:6px 0}
.side{min-width:0;border:1px solid var(--line);border-radius:6px;padding:6px 8px;background:var(--bg)}
@media (max-width:900px){.pair{grid-template-columns:1fr}}
.transcript .thead{margin-bottom:4px}
ol.calls,ul.checks{margin:2px 0;padding-left:22px}
ol.calls li,ul.checks li{margin:2px 0}
.replay{background:var(--panel);padding:0 3px}
table{border-collapse:collapse;margin:6px 0 12px;max-width:100%}
caption{text-align:left;font-weight:600;padding:2px 0}
th,td{border:1px solid var(--line);padding:3px 7px;text-align:left;vertical-align:top}
thead th{background:var(--panel)}
th[scope=row]{font-weight:normal}
td.num,.num{font-variant-numeric:tabular-nums}
table.confusion td{text-align:right;font-variant-numeric:tabular-nums}
td.hit{background:#dafbe1;color:#116329;font-weight:600}
td.miss{background:#ffebe9;color:#82071e;font-weight:600}
td.zero{color:var(--muted)}
tr.unmeasured td,tr.unmeasured th{color:var(--muted);font-style:italic}
svg.bar{vertical-align:middle}
.bar-bg{fill:#eaeef2}
.bar-fg{fill:#2da44e}
.bar-ci{stroke:#1f2328;stroke-width:1.5}
.trials details.trial{border-bottom:1px solid var(--line);margin:0;padding:2px 0}
.arm{font-size:12px;font-weight:600;padding:0 4px;border-radius:3px}
.arm-head{background:#ddf4ff;color:#0a3069}
.arm-base{background:#eaeef2;color:#1f2328}
.failed-check{font-family:ui-monospace,monospace;font-size:12px;color:#82071e}
.skill{border-top:1px solid var(--line);padding-top:4px}
.skill:first-child{border-top:0}
[hidden]{display:none !important}
.diff{border:1px solid var(--line);border-radius:4px;margin:4px 0 10px;font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.hunk+.hunk{border-top:1px dashed var(--line)}
.hh{padding:1px 6px;background:var(--panel)}
.dl{display:flex;flex-wrap:wrap;gap:0 6px;padding:0 6px;white-space:pre-wrap}
.dl code{flex:1 1 12em;min-width:0;white-space:pre-wrap}
.dl .ln{color:var(--muted);min-width:2.5em;text-align:right;user-select:none}
.dl.add{background:#dafbe1;color:#116329}
.dl.del{background:#ffebe9;color:#82071e}
.dl:target{outline:2px solid var(--focus)}
a.explains{white-space:nowrap;font-family:system-ui,sans-serif;font-size:12px}
main{overflow-wrap:break-word}
code,a,pre,.msg,.where,.transcript,td:last-child{overflow-wrap:anywhere}
.pair.three{grid-template-columns:repeat(3,minmax(0,1fr))}
@media (max-width:1200px){.pair.three{grid-template-columns:1fr 1fr}}
@media (max-width:900px){.pair.three{grid-template-columns:1fr}}
@media (max-width:600px){
main{padding:0 8px 40px}
header.top,form.filters{padding-left:8px;padding-right:8px}
form.filters input[type=search]{width:100%}
table.confusion td,table.confusion th{font-size:11.5px;padding:2px 3px;overflow-wrap:anywhere}
table.stack,table.stack tbody,table.stack tr,table.stack td,table.stack tbody th{display:block;width:100%}
table.stack thead{position:absolute;left:-10000px}
table.stack tr{border:1px solid var(--line);border-radius:4px;margin:0 0 6px}
table.stack td,table.stack tbody th{border:0;border-top:1px solid var(--line);overflow-wrap:anywhere}
table.stack tr>:first-child{border-top:0}
table.stack caption{display:block}
table.stack [data-label]::before{content:attr(data-label);display:inline-block;min-width:7.5em;margin-right:6px;font-size:11.5px;color:var(--muted);font-weight:normal;font-style:normal}
td ul,td ol{padding-left:14px;margin:0}
}
`;
