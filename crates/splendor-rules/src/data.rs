//! The official card and noble data (R1.2, R1.3) as constant tables.
//!
//! Generated once from `data/cards.csv` and `data/nobles.csv`; the test
//! `data_tables_equal_the_csv_files` checks that the tables still equal the
//! files, so an edit to either side fails the build's tests.

use crate::swar;
use crate::{Card, CardId, Color, Level, Noble, NobleId};

/// All 90 development cards; `CARDS[i].id == CardId(i)`.
pub(crate) static CARDS: [Card; 90] = CARD_TABLE;

const CARD_TABLE: [Card; 90] = [
    card(0, 1, Color::White, 0, [0, 0, 0, 2, 1]),
    card(1, 1, Color::White, 0, [0, 1, 1, 1, 1]),
    card(2, 1, Color::White, 0, [0, 1, 2, 1, 1]),
    card(3, 1, Color::White, 0, [0, 2, 0, 0, 2]),
    card(4, 1, Color::White, 0, [0, 2, 2, 0, 1]),
    card(5, 1, Color::White, 0, [0, 3, 0, 0, 0]),
    card(6, 1, Color::White, 0, [3, 1, 0, 0, 1]),
    card(7, 1, Color::White, 1, [0, 0, 4, 0, 0]),
    card(8, 1, Color::Blue, 0, [0, 0, 0, 0, 3]),
    card(9, 1, Color::Blue, 0, [0, 0, 2, 0, 2]),
    card(10, 1, Color::Blue, 0, [0, 1, 3, 1, 0]),
    card(11, 1, Color::Blue, 0, [1, 0, 0, 0, 2]),
    card(12, 1, Color::Blue, 0, [1, 0, 1, 1, 1]),
    card(13, 1, Color::Blue, 0, [1, 0, 1, 2, 1]),
    card(14, 1, Color::Blue, 0, [1, 0, 2, 2, 0]),
    card(15, 1, Color::Blue, 1, [0, 0, 0, 4, 0]),
    card(16, 1, Color::Green, 0, [0, 0, 0, 3, 0]),
    card(17, 1, Color::Green, 0, [0, 1, 0, 2, 2]),
    card(18, 1, Color::Green, 0, [0, 2, 0, 2, 0]),
    card(19, 1, Color::Green, 0, [1, 1, 0, 1, 1]),
    card(20, 1, Color::Green, 0, [1, 1, 0, 1, 2]),
    card(21, 1, Color::Green, 0, [1, 3, 1, 0, 0]),
    card(22, 1, Color::Green, 0, [2, 1, 0, 0, 0]),
    card(23, 1, Color::Green, 1, [0, 0, 0, 0, 4]),
    card(24, 1, Color::Red, 0, [0, 2, 1, 0, 0]),
    card(25, 1, Color::Red, 0, [1, 0, 0, 1, 3]),
    card(26, 1, Color::Red, 0, [1, 1, 1, 0, 1]),
    card(27, 1, Color::Red, 0, [2, 0, 0, 2, 0]),
    card(28, 1, Color::Red, 0, [2, 0, 1, 0, 2]),
    card(29, 1, Color::Red, 0, [2, 1, 1, 0, 1]),
    card(30, 1, Color::Red, 0, [3, 0, 0, 0, 0]),
    card(31, 1, Color::Red, 1, [4, 0, 0, 0, 0]),
    card(32, 1, Color::Black, 0, [0, 0, 1, 3, 1]),
    card(33, 1, Color::Black, 0, [0, 0, 2, 1, 0]),
    card(34, 1, Color::Black, 0, [0, 0, 3, 0, 0]),
    card(35, 1, Color::Black, 0, [1, 1, 1, 1, 0]),
    card(36, 1, Color::Black, 0, [1, 2, 1, 1, 0]),
    card(37, 1, Color::Black, 0, [2, 0, 2, 0, 0]),
    card(38, 1, Color::Black, 0, [2, 2, 0, 1, 0]),
    card(39, 1, Color::Black, 1, [0, 4, 0, 0, 0]),
    card(40, 2, Color::White, 1, [0, 0, 3, 2, 2]),
    card(41, 2, Color::White, 1, [2, 3, 0, 3, 0]),
    card(42, 2, Color::White, 2, [0, 0, 0, 5, 0]),
    card(43, 2, Color::White, 2, [0, 0, 0, 5, 3]),
    card(44, 2, Color::White, 2, [0, 0, 1, 4, 2]),
    card(45, 2, Color::White, 3, [6, 0, 0, 0, 0]),
    card(46, 2, Color::Blue, 1, [0, 2, 2, 3, 0]),
    card(47, 2, Color::Blue, 1, [0, 2, 3, 0, 3]),
    card(48, 2, Color::Blue, 2, [0, 5, 0, 0, 0]),
    card(49, 2, Color::Blue, 2, [2, 0, 0, 1, 4]),
    card(50, 2, Color::Blue, 2, [5, 3, 0, 0, 0]),
    card(51, 2, Color::Blue, 3, [0, 6, 0, 0, 0]),
    card(52, 2, Color::Green, 1, [2, 3, 0, 0, 2]),
    card(53, 2, Color::Green, 1, [3, 0, 2, 3, 0]),
    card(54, 2, Color::Green, 2, [0, 0, 5, 0, 0]),
    card(55, 2, Color::Green, 2, [0, 5, 3, 0, 0]),
    card(56, 2, Color::Green, 2, [4, 2, 0, 0, 1]),
    card(57, 2, Color::Green, 3, [0, 0, 6, 0, 0]),
    card(58, 2, Color::Red, 1, [0, 3, 0, 2, 3]),
    card(59, 2, Color::Red, 1, [2, 0, 0, 2, 3]),
    card(60, 2, Color::Red, 2, [0, 0, 0, 0, 5]),
    card(61, 2, Color::Red, 2, [1, 4, 2, 0, 0]),
    card(62, 2, Color::Red, 2, [3, 0, 0, 0, 5]),
    card(63, 2, Color::Red, 3, [0, 0, 0, 6, 0]),
    card(64, 2, Color::Black, 1, [3, 0, 3, 0, 2]),
    card(65, 2, Color::Black, 1, [3, 2, 2, 0, 0]),
    card(66, 2, Color::Black, 2, [0, 0, 5, 3, 0]),
    card(67, 2, Color::Black, 2, [0, 1, 4, 2, 0]),
    card(68, 2, Color::Black, 2, [5, 0, 0, 0, 0]),
    card(69, 2, Color::Black, 3, [0, 0, 0, 0, 6]),
    card(70, 3, Color::White, 3, [0, 3, 3, 5, 3]),
    card(71, 3, Color::White, 4, [0, 0, 0, 0, 7]),
    card(72, 3, Color::White, 4, [3, 0, 0, 3, 6]),
    card(73, 3, Color::White, 5, [3, 0, 0, 0, 7]),
    card(74, 3, Color::Blue, 3, [3, 0, 3, 3, 5]),
    card(75, 3, Color::Blue, 4, [6, 3, 0, 0, 3]),
    card(76, 3, Color::Blue, 4, [7, 0, 0, 0, 0]),
    card(77, 3, Color::Blue, 5, [7, 3, 0, 0, 0]),
    card(78, 3, Color::Green, 3, [5, 3, 0, 3, 3]),
    card(79, 3, Color::Green, 4, [0, 7, 0, 0, 0]),
    card(80, 3, Color::Green, 4, [3, 6, 3, 0, 0]),
    card(81, 3, Color::Green, 5, [0, 7, 3, 0, 0]),
    card(82, 3, Color::Red, 3, [3, 5, 3, 0, 3]),
    card(83, 3, Color::Red, 4, [0, 0, 7, 0, 0]),
    card(84, 3, Color::Red, 4, [0, 3, 6, 3, 0]),
    card(85, 3, Color::Red, 5, [0, 0, 7, 3, 0]),
    card(86, 3, Color::Black, 3, [3, 3, 5, 3, 0]),
    card(87, 3, Color::Black, 4, [0, 0, 0, 7, 0]),
    card(88, 3, Color::Black, 4, [0, 0, 3, 6, 3]),
    card(89, 3, Color::Black, 5, [0, 0, 0, 7, 3]),
];

/// All 10 nobles; `NOBLES[i].id == NobleId(i)`.
pub(crate) static NOBLES: [Noble; 10] = NOBLE_TABLE;

const NOBLE_TABLE: [Noble; 10] = [
    noble(0, 3, [0, 0, 0, 4, 4]),
    noble(1, 3, [0, 0, 3, 3, 3]),
    noble(2, 3, [0, 0, 4, 4, 0]),
    noble(3, 3, [0, 3, 3, 3, 0]),
    noble(4, 3, [0, 4, 4, 0, 0]),
    noble(5, 3, [3, 0, 0, 3, 3]),
    noble(6, 3, [3, 3, 0, 0, 3]),
    noble(7, 3, [3, 3, 3, 0, 0]),
    noble(8, 3, [4, 0, 0, 0, 4]),
    noble(9, 3, [4, 4, 0, 0, 0]),
];

const fn card(id: u8, level: u8, bonus: Color, points: u8, cost: [u8; 5]) -> Card {
    Card {
        id: CardId(id),
        level: Level(level),
        bonus,
        points,
        cost,
    }
}

const fn noble(id: u8, points: u8, requires: [u8; 5]) -> Noble {
    Noble {
        id: NobleId(id),
        points,
        requires,
    }
}

/// Each card's cost packed one colour per byte (see `swar`).
pub(crate) static COST_WORDS: [u64; 90] = {
    let mut words = [0u64; 90];
    let mut i = 0;
    while i < 90 {
        words[i] = swar::pack(&CARD_TABLE[i].cost);
        i += 1;
    }
    words
};

/// Each noble's requirement packed one colour per byte (see `swar`).
pub(crate) static NOBLE_WORDS: [u64; 10] = {
    let mut words = [0u64; 10];
    let mut i = 0;
    while i < 10 {
        words[i] = swar::pack(&NOBLE_TABLE[i].requires);
        i += 1;
    }
    words
};

/// Each noble's requirement summed over the colours.
pub(crate) const NOBLE_REQUIREMENT_SUMS: [u8; 10] = {
    let mut sums = [0u8; 10];
    let mut i = 0;
    while i < 10 {
        let r = &NOBLE_TABLE[i].requires;
        sums[i] = r[0] + r[1] + r[2] + r[3] + r[4];
        i += 1;
    }
    sums
};
