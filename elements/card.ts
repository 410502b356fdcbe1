/**
 * `<tether-card>`: one preview card (title, link, image, subtitle, badges).
 *
 * @module
 */
import { html, LitElement, nothing, type TemplateResult } from "lit";
import { cardStyles } from "./card.styles.ts";
import { toCard } from "./display.ts";

/**
 * A framed preview of a navigable object (a product, an issue, a page).
 * Every field is sanitised as the remote tools contract says: the card
 * renders only with an absolute http(s) `href`, opens it in a new tab
 * without an opener or referrer, loads its image only from https, and shows
 * all text as plain text.
 *
 * @tagname tether-card
 * @summary A preview card from a tool result's `display` entry.
 *
 * @csspart card - The link that frames the card.
 * @csspart image - The image, when there is a safe one.
 * @csspart title - The title line.
 * @csspart subtitle - The subtitle line.
 * @csspart badge - Each badge.
 *
 * @cssprop --tether-bg - Card background.
 * @cssprop --tether-border - Card border colour.
 * @cssprop --tether-radius - Corner radius.
 *
 * @example
 * ```html
 * <tether-card heading="Fix login" href="https://tracker.example/42" subtitle="bug · open"></tether-card>
 * ```
 */
export class TetherCard extends LitElement {
  static override styles = cardStyles;
  static override properties = {
    heading: { type: String },
    href: { type: String },
    image: { type: String },
    subtitle: { type: String },
    badges: { type: Array },
    theme: { type: String, reflect: true },
  };

  // `declare` keeps class fields from shadowing Lit's reactive accessors.
  /** The title (plain text, at most 120 characters shown). */
  declare heading: string;
  /** The absolute http(s) URL the card opens. */
  declare href: string;
  /** An absolute https image URL; any other is ignored. */
  declare image: string;
  /** One short line under the title. */
  declare subtitle: string;
  /** Up to four short labels. */
  declare badges: string[];
  /** `light`, `dark`, or unset to follow the user's preference. */
  declare theme: "light" | "dark" | undefined;

  constructor() {
    super();
    this.heading = "";
    this.href = "";
    this.image = "";
    this.subtitle = "";
    this.badges = [];
  }

  /**
   * Registers the element as `<tether-card>` unless that name is taken.
   *
   * @example
   * ```ts
   * TetherCard.define();
   * ```
   */
  static define(tag = "tether-card"): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  override render(): TemplateResult | typeof nothing {
    const card = toCard({
      title: this.heading,
      url: this.href,
      image: this.image,
      subtitle: this.subtitle,
      badges: this.badges,
    });
    if (!card) return nothing;
    return html`<a part="card" href=${card.url} target="_blank" rel="noopener noreferrer">
      ${
      card.image
        ? html`<img part="image" src=${card.image} alt="" loading="lazy" referrerpolicy="no-referrer" />`
        : nothing
    }
      <span class="text">
        <span part="title" class="title">${card.title}</span>
        ${
      card.subtitle ? html`<span part="subtitle" class="subtitle">${card.subtitle}</span>` : nothing
    }
        ${
      card.badges.length
        ? html`<span class="badges">${
          card.badges.map((b) => html`<span part="badge" class="badge">${b}</span>`)
        }</span>`
        : nothing
    }
      </span>
    </a>`;
  }
}
