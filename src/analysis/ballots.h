/* Opening decks for matches (pdnkit match --ballots). */
#ifndef PK_BALLOTS_H
#define PK_BALLOTS_H

#define ACF_DECK_SIZE 156

/* The ACF three-move deck, each "9-13 21-17 5-9". */
extern const char *const acf_deck[ACF_DECK_SIZE];

#endif
