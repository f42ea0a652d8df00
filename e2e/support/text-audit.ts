import type { Page } from 'playwright-core';

/**
 * What the pseudo-locale test finds on one screen (see apps/web/src/shared/i18n/pseudo.ts):
 * - `untranslated`: visible texts that are neither pseudo-localised nor data, i.e. texts that bypass the
 *   catalogue;
 * - `clipped`: interface texts whose box is narrower (or lower) than the text, cut or spilling over; placeholders
 *   wider than their field; menus that fold entries away;
 * - `overlapping`: pairs of visible texts drawn over each other.
 */
export interface TextAudit {
  untranslated: string[];
  clipped: string[];
  overlapping: string[];
}

export interface AuditOptions {
  /**
   * Selectors of data: names, descriptions and labels from the catalogue, file names, paths, user and centre
   * names, markdown. Their texts are not from the catalogue, so they are neither pseudo-localised nor checked for
   * clipping (long names are cut with an ellipsis on purpose); they still count for overlaps.
   */
  data: string[];
  /** Fields whose placeholder is not measured; every use says why. */
  ignorePlaceholders?: string[];
  /** Menus allowed to fold entries into "…"; every use says why. */
  allowFoldedMenus?: string[];
}

export async function auditTexts(page: Page, opts: AuditOptions): Promise<TextAudit> {
  return page.evaluate(
    ({ data, ignorePlaceholders, allowFoldedMenus }) => {
      // A pseudo-localised text carries accented letters, the padding dots or its brackets.
      const PSEUDO = /[\u00C0-\u024F\u1E00-\u1EFF·[\]]/;
      // Numbers, dates, times, sizes, counts, punctuation: the same in every language.
      const NEUTRAL =
        /^[\s\d.,:;/\\\-+–—%()×x#~|·•©®@'"“”‘’!?*&=<>_[\]{}…→←↑↓]*(\d\s*(B|KB|MB|GB|TB|PB|KiB|MiB|GiB|TiB|K|M|AM|PM))?[\s\d.,:;/\-()]*$/i;
      // Dates as Intl formats them in English (the pseudo-locale's dates): "Oct 21, 2025", "Nov 23, 2026, 7:53 PM".
      const DATE =
        /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}, \d{4}(, \d{1,2}:\d{2}( [AP]M)?)?$/;
      const isData = (el: Element) => data.some((sel) => el.closest(sel) !== null);
      const describe = (el: Element) => {
        const id = el.getAttribute('data-testid');
        const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 3).join('.') : '';
        return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls ? `.${cls}` : ''}`;
      };
      const blockOf = (el: Element): HTMLElement | null => {
        let cur: Element | null = el;
        while (cur && cur instanceof HTMLElement && getComputedStyle(cur).display === 'inline') {
          cur = cur.parentElement;
        }
        return cur instanceof HTMLElement ? cur : null;
      };
      // Texts kept off screen for screen readers only (1 px, clipped) are checked for translation, not for size.
      const srOnly = (el: Element) => {
        for (let cur: Element | null = el; cur; cur = cur.parentElement) {
          const s = getComputedStyle(cur);
          if (s.clip !== 'auto' && s.clip !== '' && s.position === 'absolute') return true;
          if (s.clipPath !== 'none' && s.clipPath !== '') return true;
        }
        return false;
      };

      const clipOf = (el: Element) => {
        const c = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
        for (let cur: Element | null = el; cur && cur !== document.body; cur = cur.parentElement) {
          const s = getComputedStyle(cur);
          if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
          const r = cur.getBoundingClientRect();
          c.left = Math.max(c.left, r.left);
          c.top = Math.max(c.top, r.top);
          c.right = Math.min(c.right, r.right);
          c.bottom = Math.min(c.bottom, r.bottom);
        }
        return c;
      };

      const untranslated = new Set<string>();
      const clipped = new Set<string>();
      const shown: { text: string; el: Element; rect: DOMRect }[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.replace(/\s+/g, ' ').trim() ?? '';
        const el = node.parentElement;
        if (!text || !el || el.closest('script, style, noscript, svg')) continue;
        if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
        if (rects.length === 0) continue;
        const box = blockOf(el);
        // In a box of no height or width with its overflow hidden (Ant Design's measuring rows): not seen.
        if (
          box &&
          (box.clientHeight === 0 || box.clientWidth === 0) &&
          getComputedStyle(box).overflow !== 'visible'
        )
          continue;
        const dataText = isData(el);
        if (!dataText && !PSEUDO.test(text) && !NEUTRAL.test(text) && !DATE.test(text)) {
          untranslated.add(`"${text.slice(0, 80)}" in ${describe(el)}`);
        }
        if (!dataText && box && !srOnly(box) && PSEUDO.test(text)) {
          const wide = box.scrollWidth > box.clientWidth + 1;
          const s = getComputedStyle(box);
          const high = s.overflowY !== 'visible' && box.scrollHeight > box.clientHeight + 1;
          if (wide || high) {
            clipped.add(
              `"${text.slice(0, 60)}" in ${describe(box)} (${box.scrollWidth}×${box.scrollHeight} in ${box.clientWidth}×${box.clientHeight})`,
            );
          }
        }
        if (!box || !srOnly(box)) {
          // What shows of each line: cut to every ancestor that hides its overflow (line-clamped descriptions).
          const clip = clipOf(el);
          for (const r of rects) {
            const left = Math.max(r.left, clip.left);
            const top = Math.max(r.top, clip.top);
            const right = Math.min(r.right, clip.right);
            const bottom = Math.min(r.bottom, clip.bottom);
            if (right - left > 0 && bottom - top > 0)
              shown.push({ text, el, rect: new DOMRect(left, top, right - left, bottom - top) });
          }
        }
      }

      // Overlaps among the texts actually seen: inside the viewport and not under an opaque layer at their centre.
      const onTop = shown.filter(({ el, rect }) => {
        const x = rect.left + rect.width / 2;
        const y = rect.top + rect.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
        const hit = document.elementFromPoint(x, y);
        if (hit === null) return false;
        if (el.contains(hit) || hit.contains(el)) return true;
        // Something else is on top: the text is hidden when that has a background (a dialog, its mask, a
        // dropdown), and seen through it when it is transparent (another text drawn over it).
        for (let cur: Element | null = hit; cur && !cur.contains(el); cur = cur.parentElement) {
          const bg = getComputedStyle(cur).backgroundColor;
          if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return false;
        }
        return true;
      });
      const overlapping = new Set<string>();
      for (let i = 0; i < onTop.length; i++) {
        for (let j = i + 1; j < onTop.length; j++) {
          const a = onTop[i]!;
          const b = onTop[j]!;
          if (a.el === b.el) continue; // lines of one text, or text nodes of one element
          const w = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
          const h = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
          // Line boxes of adjacent lines may touch by a pixel or two; drawn text over text overlaps by far more.
          if (w > 2 && h > 0.3 * Math.min(a.rect.height, b.rect.height)) {
            overlapping.add(
              `"${a.text.slice(0, 40)}" (${describe(a.el)}) × "${b.text.slice(0, 40)}" (${describe(b.el)})`,
            );
          }
        }
      }

      // Placeholders are no text nodes: measured with the field's font against the room the field gives them.
      const canvas = document.createElement('canvas').getContext('2d')!;
      for (const input of Array.from(
        document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]'),
      )) {
        if (input.value || !input.checkVisibility({ visibilityProperty: true }) || isData(input)) continue;
        if (ignorePlaceholders.some((sel) => input.closest(sel))) continue;
        const s = getComputedStyle(input);
        canvas.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        const room = input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
        const needs = canvas.measureText(input.placeholder).width;
        if (needs > room + 1) {
          clipped.add(
            `placeholder "${input.placeholder}" in ${describe(input)} (${Math.ceil(needs)} px in ${room} px)`,
          );
        }
        if (!PSEUDO.test(input.placeholder))
          untranslated.add(`placeholder "${input.placeholder}" in ${describe(input)}`);
      }
      // A horizontal menu folds what does not fit into "…": its entries are then hidden, not just cut.
      for (const rest of Array.from(document.querySelectorAll('.ant-menu-overflow-item-rest'))) {
        if (allowFoldedMenus.some((sel) => rest.closest(sel))) continue;
        if ((rest as HTMLElement).checkVisibility())
          clipped.add(`menu entries folded into "…" in ${describe(rest.closest('.ant-menu') ?? rest)}`);
      }
      return { untranslated: [...untranslated], clipped: [...clipped], overlapping: [...overlapping] };
    },
    {
      data: opts.data,
      ignorePlaceholders: opts.ignorePlaceholders ?? [],
      allowFoldedMenus: opts.allowFoldedMenus ?? [],
    },
  );
}
