/* pdnkit play: drawing the game, full-screen (plain ANSI, 80x24) or as text lines. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <termios.h>
#include <unistd.h>
#include "cli.h"
#include "play.h"
#include "pdn/movenum.h"
#include "report/diagram.h"

static struct termios saved_tio;
static bool have_tio, in_screen;

void view_say(pctx *c, const char *fmt, ...)
{
	char buf[240];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!c->screen) {
		printf("%s\n", buf);
		fflush(stdout);
		return;
	}
	if (c->nmsg == MSG_LINES) {
		memmove(c->msg[0], c->msg[1], sizeof c->msg[0] * (MSG_LINES - 1));
		c->nmsg--;
	}
	snprintf(c->msg[c->nmsg++], sizeof c->msg[0], "%s", buf);
}

/* What stands on square sq: 'b', 'B', 'w', 'W' or 0. */
static char piece_char(const pk_gpos *p, int sq)
{
	if (p->v) {
		switch (p->x.sq[sq]) {
		case VP_BMAN: return 'b';
		case VP_BKING: return 'B';
		case VP_WMAN: return 'w';
		case VP_WKING: return 'W';
		default: return 0;
		}
	}
	int col;
	bool king;
	if (!pos_piece_at(&p->e, sq, &col, &king))
		return 0;
	return col == PK_BLACK ? (king ? 'B' : 'b') : (king ? 'W' : 'w');
}

/* The board's rows and columns as drawn. */
static int board_rows(const pctx *c) { return c->v ? c->v->rows : 8; }
static int board_cols(const pctx *c) { return c->v ? c->v->cols : 8; }

/* The square drawn at row r, column k, or 0 for a light square. */
static int square_at(const pctx *c, int r, int k)
{
	if (c->v) {
		int rows = c->v->rows, cols = c->v->cols;
		return c->flip ? variant_rc_square(c->v, rows - 1 - r, cols - 1 - k) : variant_rc_square(c->v, r, k);
	}
	for (int sq = 1; sq <= 32; sq++) {
		int rr, kk;
		diagram_square_xy(sq, c->flip, &rr, &kk);
		if (rr == r && kk == k)
			return sq;
	}
	return 0;
}

void view_board_text(pctx *c)
{
	const pk_gpos *p = &c->g.pos;
	int rows = board_rows(c), cols = board_cols(c);
	for (int r = 0; r < rows; r++) {
		char row[80], num[80];
		int n = 0, m = 0;
		for (int k = 0; k < cols; k++) {
			int sq = square_at(c, r, k);
			char ch = sq ? piece_char(p, sq) : ' ';
			row[n++] = ' ';
			row[n++] = sq && !ch ? '.' : ch;
			m += sq ? snprintf(num + m, sizeof num - (size_t)m, "%3d", sq)
				: snprintf(num + m, sizeof num - (size_t)m, "   ");
		}
		row[n] = 0;
		if (c->numbers)
			printf("   %s      %s\n", row, num);
		else
			printf("   %s\n", row);
	}
	printf("   %s to move", pc_side_name(gpos_stm(p)));
	if (c->clocked) {
		char b[24], w[24];
		clock_format(c->clk.left[PK_BLACK], b, sizeof b);
		clock_format(c->clk.left[PK_WHITE], w, sizeof w);
		printf("   clock Black %s White %s", b, w);
	}
	printf("\n");
	fflush(stdout);
}

/* ---- full screen ---- */

typedef struct {
	char *buf;
	size_t len, cap;
} sbuf;

static void sb_put(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_put(sbuf *s, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof tmp)
		n = sizeof tmp - 1;
	if (s->len + (size_t)n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8192;
		while (cap < s->len + (size_t)n + 1)
			cap *= 2;
		char *b = realloc(s->buf, cap);
		if (!b)
			return;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, tmp, (size_t)n);
	s->len += (size_t)n;
}

/* Text at row r (1..24), column k (1..80), cut at width w. */
static void at(sbuf *s, int r, int k, int w, const char *text)
{
	sb_put(s, "\033[%d;%dH%.*s", r, k, w, text);
}

#define PANEL 47
#define PANEL_W 33

void view_draw(pctx *c)
{
	if (!c->screen) {
		view_board_text(c);
		return;
	}
	sbuf s = { 0 };
	const pk_gpos *p = &c->g.pos;
	sb_put(&s, "\033[0m\033[H\033[2J");
	char t[240];
	snprintf(t, sizeof t, "pdnkit play  -  %s%s%s", c->v ? c->v->name : "", c->v ? "  -  " : "", c->level_text);
	at(&s, 1, 2, 78, t);
	if (!c->v) {
		/* The board: 8 rows of two lines, squares five columns wide. */
		for (int r = 0; r < 8; r++)
			for (int half = 0; half < 2; half++) {
				sb_put(&s, "\033[%d;3H", 3 + 2 * r + half);
				for (int k = 0; k < 8; k++) {
					int sq = square_at(c, r, k);
					if (!sq) {
						sb_put(&s, "\033[0;30;47m     ");
						continue;
					}
					char ch = piece_char(p, sq);
					if (half == 0) {
						if (ch)
							sb_put(&s, "\033[0;42;%sm  %c  ", ch == 'b' || ch == 'B' ? "1;31" : "1;97", ch);
						else   /* an empty dark square: seen also without colours */
							sb_put(&s, "\033[0;42m  .  ");
					} else if (c->numbers)
						sb_put(&s, "\033[0;30;42m   %2d", sq);
					else
						sb_put(&s, "\033[0;42m     ");
				}
				sb_put(&s, "\033[0m");
			}
	} else {
		/* A larger board: a line a row, squares four columns wide, the number before
		 * the piece with --numbers */
		int rows = board_rows(c), cols = board_cols(c);
		for (int r = 0; r < rows; r++) {
			sb_put(&s, "\033[%d;3H", 3 + r);
			for (int k = 0; k < cols; k++) {
				int sq = square_at(c, r, k);
				if (!sq) {
					sb_put(&s, "\033[0;30;47m    ");
					continue;
				}
				char ch = piece_char(p, sq);
				const char *colour = ch == 'b' || ch == 'B' ? "1;31" : "1;97";
				if (c->numbers)
					sb_put(&s, "\033[0;30;42m%2d\033[0;42;%sm%c ", sq, colour, ch ? ch : '.');
				else if (ch)
					sb_put(&s, "\033[0;42;%sm %c  ", colour, ch);
				else
					sb_put(&s, "\033[0;42m .  ");
			}
			sb_put(&s, "\033[0m");
		}
	}
	/* The panel: players, clocks, the engine's search. */
	for (int side = 0; side < 2; side++) {
		char clk[24] = "";
		if (c->clocked)
			clock_format(c->clk.left[side], clk, sizeof clk);
		snprintf(t, sizeof t, "%s %-5s %-15.15s %s", gpos_stm(p) == side && !c->over ? ">" : " ", pc_side_name(side),
			 c->names[side], clk);
		at(&s, 3 + side, PANEL, PANEL_W, t);
	}
	snprintf(t, sizeof t, "Move       %.200s", c->last_move[0] ? c->last_move : "-");
	at(&s, 6, PANEL, PANEL_W, t);
	snprintf(t, sizeof t, "Time       %.1f s%s", c->seconds, c->thinking ? "  thinking..." : "");
	at(&s, 7, PANEL, PANEL_W, t);
	char sc[48];
	pc_score_for_view(c, c->score, c->score_side, sc, sizeof sc);
	snprintf(t, sizeof t, "Score      %s", sc);
	at(&s, 8, PANEL, PANEL_W, t);
	snprintf(t, sizeof t, "Iteration  %d   %llu nodes", c->depth, (unsigned long long)c->nodes);
	at(&s, 9, PANEL, PANEL_W, t);
	/* The line, wrapped. */
	{
		const char *q = c->line;
		for (int row = 10; row < 13 && *q; row++) {
			int w = PANEL_W - 5, n = (int)strlen(q);
			if (n > w) {
				n = w;
				while (n > 0 && q[n] != ' ')
					n--;
				if (n == 0)
					n = w;
			}
			snprintf(t, sizeof t, "%s%.*s", row == 10 ? "Line " : "     ", n, q);
			at(&s, row, PANEL, PANEL_W, t);
			q += n;
			while (*q == ' ')
				q++;
		}
	}
	/* The last moves, numbered. */
	/* move numbers as the first mover opens them (Black in English draughts, White in
	 * International): "opens" is 0 for the side that opens a number */
	int opens0 = gpos_stm(&c->g.start) == pc_first(c) ? 0 : 1;
	int first = c->g.nply > 8 ? c->g.nply - 8 : 0;
	if (first % 2 != opens0)
		first = first > 0 ? first - 1 : 0;
	int row = 14;
	char mv[400];
	for (int i = first; i < c->g.nply && row <= 18;) {
		int second = (opens0 + i) % 2;   /* 1: the move of the side that answers */
		int num = movenum_at(1, opens0, i);
		int n = snprintf(t, sizeof t, "%3d. ", num);
		if (second) {
			n += snprintf(t + n, sizeof t - (size_t)n, "...    ");
		} else {
			play_move_text(&c->g, i, mv, sizeof mv);
			n += snprintf(t + n, sizeof t - (size_t)n, "%-7s", mv);
			i++;
		}
		if (i < c->g.nply) {
			play_move_text(&c->g, i, mv, sizeof mv);
			snprintf(t + n, sizeof t - (size_t)n, " %s", mv);
			i++;
		}
		at(&s, row++, PANEL, PANEL_W, t);
	}
	if (c->over)
		at(&s, 19, PANEL, PANEL_W, c->end_text);
	for (int i = 0; i < c->nmsg; i++)   /* messages as wide as the terminal */
		at(&s, 20 + i, 2, (c->cols > 80 ? c->cols : 80) - 2, c->msg[i]);
	if (s.buf) {
		fwrite(s.buf, 1, s.len, stdout);
		fflush(stdout);
	}
	free(s.buf);
}

int view_screen_begin(void)
{
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		have_tio = true;
	in_screen = true;
	printf("\033[?1049h\033[H\033[2J");
	fflush(stdout);
	return 0;
}

void view_screen_end(void)
{
	if (!in_screen)
		return;
	view_keys_raw(false);
	printf("\033[0m\033[?1049l");
	fflush(stdout);
	in_screen = false;
}

void view_keys_raw(bool raw)
{
	if (!have_tio)
		return;
	struct termios t = saved_tio;
	if (raw) {
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
	}
	tcsetattr(STDIN_FILENO, TCSANOW, &t);
}

int view_key(int ms)
{
	fd_set r;
	FD_ZERO(&r);
	FD_SET(STDIN_FILENO, &r);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	if (select(STDIN_FILENO + 1, &r, NULL, NULL, &tv) <= 0)
		return -1;
	unsigned char ch;
	return read(STDIN_FILENO, &ch, 1) == 1 ? ch : -2;
}

char *view_read_line(pctx *c, char *buf, size_t size)
{
	if (c->screen) {
		view_draw(c);
		bool you = !c->engine_plays[pc_stm(c)] && !c->over;
		printf("\033[23;2H\033[K%s%s> ", you ? "your move, " : "", "or a command (help)");
		fflush(stdout);
	} else if (isatty(STDIN_FILENO)) {
		printf("%s> ", pc_side_name(pc_stm(c)));
		fflush(stdout);
	}
	if (!fgets(buf, (int)size, stdin))
		return NULL;
	size_t n = strlen(buf);
	if (n && buf[n - 1] != '\n' && !feof(stdin)) {
		/* A line longer than the buffer: the rest is read and dropped. */
		int ch;
		while ((ch = getchar()) != EOF && ch != '\n')
			;
	}
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return buf;
}
