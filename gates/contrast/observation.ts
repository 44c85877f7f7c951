/**
 * What the confined Chromium reports of a page (gates/contrast/chromium.ts) and how skillgate checks it before
 * judging (`CASCADE_OBSERVATION_SCHEMA`, validated in skillgate's process): the shape of the observation, in one
 * place, and the page it was made of.
 */

/** Most text elements read of one page (more: the observation says `truncated`). */
export const MAX_TEXT_ELEMENTS = 2000;
/** Characters of an element's text kept to name it. */
export const MAX_TEXT_SNIPPET = 40;

/** Attributes `page.ts` puts on the elements it generates (honoured only for generated pages). */
export const LABEL_ATTR = "data-skillgate-label";
export const RULE_ATTR = "data-skillgate-rule";
export const STATE_ATTR = "data-skillgate-state";
export const FORCEABLE_STATES = ["active", "focus", "focus-visible", "focus-within", "hover", "visited"];

export interface CascadeLayer {
  label: string;
  backgroundColor: string;
  backgroundImage: string;
  opacity: string;
  display: string;
  visibility: string;
  /** file:line:column of the winning background (or opacity) declaration, when it comes from an author rule. */
  where: string | null;
}
export interface TextElement {
  label: string;
  text: string;
  color: string;
  /** `-webkit-text-fill-color`, which paints the glyphs when set. */
  textFill: string;
  fontSize: string;
  fontWeight: string;
  /** file:line:column of the winning `color` declaration (own or inherited). */
  colorFrom: string | null;
  /** The rule that generated the element (generated pages). */
  rule: string | null;
  /** Pseudo-classes forced on it (`hover`, …), generated pages only. */
  state: string[];
  /** The element first, then each ancestor up to `html`. */
  layers: CascadeLayer[];
}
export type CascadeObservation =
  | { elements: TextElement[]; truncated: boolean }
  | { error: string; kind: "chromium-missing" | "chromium-sandbox" | "chromium" };

const STRING = { type: "string", maxLength: 4096 };
const WHERE = { type: ["string", "null"], maxLength: 4096 };
const LAYER_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["label", "backgroundColor", "backgroundImage", "opacity", "display", "visibility", "where"],
  properties: {
    label: STRING,
    backgroundColor: STRING,
    backgroundImage: STRING,
    opacity: { type: "string", pattern: "^(?:\\d+(?:\\.\\d+)?(?:e-?\\d+)?)$" },
    display: STRING,
    visibility: STRING,
    where: WHERE,
  },
};
export const CASCADE_OBSERVATION_SCHEMA = {
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["elements", "truncated"],
      properties: {
        truncated: { type: "boolean" },
        elements: {
          type: "array",
          maxItems: MAX_TEXT_ELEMENTS,
          items: {
            type: "object",
            additionalProperties: false,
            required: [
              "label",
              "text",
              "color",
              "textFill",
              "fontSize",
              "fontWeight",
              "colorFrom",
              "rule",
              "state",
              "layers",
            ],
            properties: {
              label: STRING,
              text: STRING,
              color: STRING,
              textFill: STRING,
              fontSize: { type: "string", pattern: "^\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?px$" },
              fontWeight: { type: "string", pattern: "^\\d+(?:\\.\\d+)?$" },
              colorFrom: WHERE,
              rule: WHERE,
              state: { type: "array", maxItems: 8, items: { enum: FORCEABLE_STATES } },
              layers: { type: "array", minItems: 1, maxItems: 512, items: LAYER_SCHEMA },
            },
          },
        },
      },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["error", "kind"],
      properties: { error: STRING, kind: { enum: ["chromium-missing", "chromium-sandbox", "chromium"] } },
    },
  ],
};

/** A page to observe: the file Chromium loads, and the folders it may read (bound read-only). */
export interface PageSpec {
  file: string;
  readable: string[];
  /** Generated page: honour the `data-skillgate-*` attributes. */
  generated: boolean;
  /** Source text of the module, to place inline `style` attributes (`.html`). */
  sourceText: string;
  modulePath: string;
}
