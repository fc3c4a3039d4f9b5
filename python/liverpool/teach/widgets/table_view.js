// The card table's front end: draws the view state that Python sends (the `view` trait)
// and sends back intents ({kind: "stock"}, {kind: "select", key}, …). It decides no rule:
// what is clickable comes from the view, which the engine filled.

const h = (tag, attrs = {}, children = []) => {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "html") el.innerHTML = value;
    else if (name === "text") el.textContent = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of [].concat(children)) if (child) el.appendChild(child);
  return el;
};

function render({ model, el }) {
  const root = h("div", { class: "lp-table", tabindex: "-1" });
  el.appendChild(root);
  const send = (intent) => model.send(intent);
  let settingsOpen = false;

  const button = (cls, label, intent, extra = {}) =>
    h("button", { type: "button", class: `lp-btn ${cls}`, onclick: () => send(intent), ...extra }, [
      h("span", { text: label }),
    ]);

  function seatChip(seat, words) {
    return h("div", { class: `lp-seat${seat.you ? " lp-seat-you" : ""}${seat.to_act ? " lp-to-act" : ""}`, dataset: { seat: seat.seat } }, [
      h("div", { class: "lp-seat-name", text: seat.name }),
      h("div", { class: "lp-seat-cards", text: seat.cards_text }),
      h("div", { class: "lp-seat-facts", text: `${seat.down ? words.w_down + " · " : ""}${words.w_buys}: ${seat.buys} · ${words.w_total}: ${seat.total}` }),
    ]);
  }

  function piles(view, words) {
    const a = view.actions;
    const stock = h("button", {
      type: "button", class: `lp-stock lp-pile${a.stock ? " lp-live" : ""}`, "aria-label": `${words.w_stock} (${view.stock.count})`,
      disabled: !a.stock, onclick: () => send({ kind: "stock" }),
    }, [h("span", { class: "lp-pile-card", html: view.stock.back }), h("span", { class: "lp-pile-label", text: `${words.w_stock} · ${view.stock.count}` })]);
    const discardLive = a.take || a.discard;
    const discard = h("button", {
      type: "button", class: `lp-discard-pile lp-pile${discardLive ? " lp-live" : ""}`,
      "aria-label": `${words.w_discard}: ${view.discard.top || words.w_empty}`, disabled: !discardLive,
      onclick: () => send({ kind: "discard_pile" }),
    }, [
      h("span", { class: "lp-pile-card", html: view.discard.svg || `<span class="lp-empty">${words.w_empty}</span>` }),
      h("span", { class: "lp-pile-label", text: `${words.w_discard} · ${view.discard.count}` }),
    ]);
    const parts = [stock, discard];
    if (view.buy_offer) {
      parts.push(h("div", { class: "lp-buy-offer", role: "group" }, [
        h("span", { class: "lp-buy-card", html: view.buy_offer.svg }),
        h("span", { class: "lp-buy-penalty", title: words.w_penalty }, [
          h("span", { class: "lp-buy-plus", text: "+" }),
          h("span", { class: "lp-buy-back", html: view.stock.back }),
        ]),
        h("div", { class: "lp-buy-text" }, [
          h("div", { text: view.buy_offer.text }),
          h("div", { class: "lp-buy-buttons" }, [
            a.buy ? button("lp-buy lp-good", words.w_buy, { kind: "buy" }) : null,
            a.pass ? button("lp-pass lp-quiet", words.w_pass, { kind: "pass" }) : null,
          ]),
        ]),
      ]));
    }
    return h("div", { class: "lp-piles" }, parts);
  }

  function melds(view, words) {
    if (!view.melds.length) return h("div", { class: "lp-melds lp-melds-empty", text: words.w_no_melds });
    const byOwner = new Map();
    for (const meld of view.melds) {
      if (!byOwner.has(meld.owner)) byOwner.set(meld.owner, { name: meld.owner_name, melds: [] });
      byOwner.get(meld.owner).melds.push(meld);
    }
    const groups = [...byOwner.values()].map((group) =>
      h("div", { class: "lp-meld-group" }, [
        h("div", { class: "lp-meld-owner", text: group.name }),
        h("div", { class: "lp-meld-row" }, group.melds.map((meld) =>
          h("button", {
            type: "button", class: `lp-meld${meld.target ? " lp-target" : ""}`, dataset: { index: meld.index },
            "aria-label": `${group.name}: ${meld.cards.map((c) => c.card).join(" ")}`,
            onclick: () => send({ kind: "meld", index: meld.index }),
          }, meld.cards.map((c) => h("span", { class: "lp-meld-card", dataset: { card: c.card }, html: c.svg }))),
        )),
      ]),
    );
    return h("div", { class: "lp-melds", "aria-label": words.w_table }, groups);
  }

  function slots(view, words) {
    const a = view.actions;
    const parts = [];
    if (view.can_go_down) parts.push(h("div", { class: "lp-can-go-down", text: words.w_can_go_down }));
    if (view.slots.length) {
      parts.push(h("div", { class: "lp-slot-row" }, view.slots.map((slot) =>
        h("button", {
          type: "button", class: `lp-slot${slot.cards.length ? " lp-filled" : ""}`, dataset: { index: slot.index },
          onclick: () => send({ kind: slot.cards.length && !view.hand.some((c) => c.selected) ? "unslot" : "slot", index: slot.index }),
        }, [h("span", { class: "lp-slot-label", text: slot.label }), ...slot.cards.map((c) => h("span", { class: "lp-meld-card", html: c.svg }))]),
      )));
      parts.push(h("div", { class: "lp-slot-buttons" }, [
        a.go_down ? button("lp-suggest", words.w_suggest, { kind: "suggest" }) : null,
        a.go_down ? button("lp-go-down lp-good", words.w_go_down, { kind: "go_down" }) : null,
        view.slots.some((s) => s.cards.length) ? button("lp-clear lp-quiet", words.w_clear, { kind: "clear" }) : null,
      ]));
    }
    if (view.pending) {
      parts.push(h("div", { class: "lp-pending" }, view.pending.choices.filter((c) => c).map((end) =>
        button(`lp-end lp-end-${end}`, words[`w_end_${end}`], { kind: "end", end }))));
    }
    return parts.length ? h("div", { class: "lp-go-down-area" }, parts) : null;
  }

  function hand(view, words) {
    const cards = view.hand.map((card) =>
      h("button", {
        type: "button",
        class: `lp-card${card.selected ? " lp-selected" : ""}${card.gained ? " lp-gained" : ""}${card.hinted ? " lp-hinted" : ""}`,
        dataset: { key: card.key, card: card.card }, "aria-label": card.label, "aria-pressed": card.selected ? "true" : "false",
        html: card.svg, onclick: () => send({ kind: "select", key: card.key }),
      }),
    );
    const sort = view.settings.sort;
    return h("div", { class: "lp-hand-area" }, [
      h("div", { class: "lp-hand-head" }, [
        h("b", { text: words.w_your_hand }),
        h("button", {
          type: "button", class: "lp-sort lp-quiet lp-btn",
          onclick: () => send({ kind: "sort", name: "sort", value: sort === "suit" ? "rank" : "suit" }),
        }, [h("span", { text: sort === "suit" ? words.w_sort_rank : words.w_sort_suit })]),
      ]),
      h("div", { class: "lp-hand", role: "group", "aria-label": words.w_your_hand }, cards),
    ]);
  }

  function bar(view, words) {
    const a = view.actions;
    const items = [];
    for (const name of a.simple) {
      if (name === "cut") {
        // The cut's size (empty or 0: at random); the engine judges it.
        const size = h("input", { type: "number", min: "0", class: "lp-cut-size", "aria-label": words.button_cut });
        items.push(size);
        items.push(h("button", {
          type: "button", class: "lp-btn lp-action lp-action-cut lp-good",
          onclick: () => send({ kind: "action", name: "cut", size: size.value === "" ? 0 : Number(size.value) }),
        }, [h("span", { text: words.button_cut })]));
      } else {
        items.push(button(`lp-action lp-action-${name} lp-good`, words[`button_${name}`] || name, { kind: "action", name }));
      }
    }
    if (a.play_again) items.push(button("lp-play-again lp-good", words.w_play_again, { kind: "play_again" }));
    if (a.hint) items.push(button("lp-hint lp-quiet", words.w_hint, { kind: "hint" }));
    if (a.auto) items.push(button("lp-auto lp-quiet", words.w_auto, { kind: "auto" }));
    if (a.undo) items.push(button("lp-undo lp-quiet", words.w_undo, { kind: "undo" }));
    return h("div", { class: "lp-bar" }, items);
  }

  function log(view, words) {
    return h("div", { class: "lp-log-box" }, [
      h("b", { text: words.w_log }),
      h("ul", { class: "lp-log" }, view.log.map((line) =>
        h("li", { class: `lp-log-${line.kind}${line.you ? " lp-log-you" : ""}` }, [
          h("span", { text: line.text }),
          line.reason ? h("span", { class: "lp-why", text: ` — ${line.reason}` }) : null,
        ]),
      )),
    ]);
  }

  function scores(view, words) {
    const s = view.scores;
    const head = h("tr", {}, [h("th", { text: words.w_round }), ...s.seats.map((name) => h("th", { text: name }))]);
    const rows = s.rounds.map((r) => h("tr", {}, [
      h("td", { text: String(r.round) }),
      ...r.scores.map((score, seat) => h("td", { text: `${score}${seat === r.winner ? " ★" : ""}` })),
    ]));
    const winners = new Set(view.winners);
    const totals = h("tr", { class: "lp-totals" }, [
      h("td", { text: words.w_total }),
      ...s.totals.map((t, seat) => h("td", { class: winners.has(seat) ? "lp-winner" : "", text: `${winners.has(seat) ? "🏆 " : ""}${t}` })),
    ]);
    return h("div", { class: "lp-scores" }, [h("b", { text: words.w_scores }), h("table", {}, [head, ...rows, totals])]);
  }

  function settings(view, words) {
    const st = view.settings;
    const select = (name, value, options) => h("select", {
      class: `lp-setting-${name}`,
      onchange: (event) => send({ kind: "setting", name, value: event.target.value }),
    }, options.map(([v, label]) => h("option", { value: v, selected: v === value, text: label })));
    const panel = h("details", { class: "lp-settings", open: settingsOpen, ontoggle: (e) => { settingsOpen = e.target.open; } }, [
      h("summary", { text: words.w_settings }),
      h("label", {}, [h("span", { text: `${words.w_buying}: ` }), select("buying", st.buying, [
        ["always", words.w_buying_always], ["helps", words.w_buying_helps], ["never", words.w_buying_never]])]),
      h("label", {}, [h("span", { text: `${words.w_pace}: ` }), select("pace", st.pace, [
        ["fast", words.w_pace_fast], ["normal", words.w_pace_normal], ["slow", words.w_pace_slow]])]),
      h("label", {}, [
        h("input", { type: "checkbox", class: "lp-setting-undo", checked: st.undo, onchange: (e) => send({ kind: "setting", name: "undo", value: e.target.checked }) }),
        h("span", { text: ` ${words.w_undo_on}` }),
      ]),
      h("div", { class: "lp-keys", text: words.w_keys }),
    ]);
    return panel;
  }

  function draw() {
    const view = model.get("view");
    if (!view || !view.words) return;
    const words = view.words;
    const active = document.activeElement;
    const focus = active && root.contains(active) ? focusId(active) : null;
    root.lang = view.language;
    root.dataset.phase = view.phase;
    root.dataset.clicks = view.stats.clicks;
    root.dataset.buyAnswers = view.stats.buy_answers;
    root.classList.toggle("lp-mine", view.mine);
    root.classList.toggle("lp-guided", view.guided);
    root.dataset.lesson = view.lesson;
    const board = h("section", { class: "lp-board" }, [
      h("div", { class: "lp-seats" }, view.seats.filter((s) => !s.you).map((s) => seatChip(s, words))),
      piles(view, words),
      melds(view, words),
      slots(view, words),
      hand(view, words),
      bar(view, words),
      view.hint ? h("div", { class: "lp-hint-panel", text: view.hint }) : null,
    ]);
    const news = view.banner_winner || view.round_news.length
      ? h("div", { class: view.banner_winner ? "lp-winner-banner" : "lp-round-news" },
        (view.banner_winner ? [view.banner_winner] : view.round_news).map((line) => h("div", { text: line })))
      : null;
    root.replaceChildren(...[
      h("header", { class: "lp-banner" }, [
        h("span", { class: "lp-contract", text: view.banner }),
        h("span", { class: "lp-you", text: view.seats.filter((s) => s.you).map((s) => `${s.name}: ${s.cards_text} · ${words.w_total} ${s.total}`).join("") }),
      ]),
      h("div", { class: `lp-prompt${view.mine ? " lp-yours" : ""}`, role: "status", text: view.prompt }),
      view.coach ? h("div", { class: "lp-coach", text: view.coach }) : null,
      view.message ? h("div", { class: "lp-message", role: "alert", text: view.message }) : null,
      news,
      h("div", { class: "lp-main" }, [
        board,
        h("aside", { class: "lp-side" }, [log(view, words), scores(view, words), settings(view, words)]),
      ]),
    ].filter(Boolean));
    if (focus) {
      const again = root.querySelector(focus);
      if (again) again.focus();
    }
  }

  function focusId(node) {
    if (node.dataset && node.dataset.key) return `.lp-card[data-key="${CSS.escape(node.dataset.key)}"]`;
    if (node.dataset && node.dataset.index && node.classList.contains("lp-meld")) return `.lp-meld[data-index="${node.dataset.index}"]`;
    const named = [...node.classList].find((c) => c.startsWith("lp-") && c !== "lp-btn" && c !== "lp-live");
    return named ? `.${named}` : null;
  }

  const keys = { s: "stock", d: "discard_pile", g: "go_down", u: "undo", h: "hint", b: "buy", p: "pass" };
  root.addEventListener("keydown", (event) => {
    if (event.target.closest("select, input") || event.ctrlKey || event.metaKey || event.altKey) return;
    const kind = keys[event.key.toLowerCase()];
    if (kind) {
      event.preventDefault();
      send({ kind });
    } else if (event.key.toLowerCase() === "n") {
      const view = model.get("view");
      const name = view && view.actions.simple[0];
      if (name) send({ kind: "action", name });
    }
  });

  model.on("change:view", draw);
  draw();
  return () => model.off("change:view", draw);
}

export default { render };
