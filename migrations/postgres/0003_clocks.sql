-- Turn clocks and stand-ins (RULES.md R12, issue 10).
-- A game's clock option: {"initial_s":300,"increment_s":10,"stand_in_when_away":true};
-- NULL when the room had no clock.
ALTER TABLE games ADD COLUMN clock_json TEXT;
-- What an action carries besides the move: who made it when it was not the
-- seat's player ({"by":"bot"|"stand_in"}) and every seat's clock after it
-- ({"clocks":[{"bank_ms":..,"stand_in":..},..]}); NULL when neither applies.
ALTER TABLE actions ADD COLUMN meta_json TEXT;
