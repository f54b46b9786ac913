"""A first bot: buy the most valuable card it can, else take tokens.

Run a server (`cargo run --release -p splendor-server`), then:
    pip install ./clients/python
    python clients/python/examples/template_bot.py
It creates a room, seats the server's greedy bot and plays it. In the arena:
    splendor-arena greedy --bot "mine=python3 clients/python/examples/template_bot.py"
"""

import splendor_kit


def choose(state: splendor_kit.State) -> splendor_kit.Action:
    legal = state.legal_actions
    buys = [a for a in legal if isinstance(a, dict) and "buy" in a]
    if buys:
        # The card behind each buy: face-up or in my reserve.
        cards = {c.id: c for lvl in state.levels for c in lvl.cards if c}
        cards.update({r.card.id: r.card for r in state.me.reserved if r.card})

        def value(a):
            card_id = a["buy"] if isinstance(a["buy"], int) else a["buy"]["card"]
            card = cards.get(card_id)
            return card.points if card else 0

        return max(buys, key=value)
    takes = [a for a in legal if isinstance(a, dict) and "take" in a and len(a["take"]) == 3]
    if takes:
        return takes[0]
    return legal[0]  # returning tokens, choosing a noble, reserving, or passing


if __name__ == "__main__":
    result = splendor_kit.run(choose)
    print("winners:", result.winners, f"(ended: {result.end})")
    for r in result.ranking:
        print(f"{r['rank']}. {r['name']}: {r['points']} points")
