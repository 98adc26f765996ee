/* A small driver of a headless Chromium through the DevTools protocol over a pipe
 * (--remote-debugging-pipe: JSON messages ended by NUL on descriptors 3 and 4), for the
 * browser tests of pdnkit serve: real clicks and key presses, checks of the page's state
 * by JavaScript, screenshots, and every console error and uncaught exception reported.
 *
 * usage: cdp CHROMIUM SCRIPT
 * SCRIPT, one command a line ('#' comments):
 *   goto URL            load URL and wait until the document is complete
 *   wait EXPR           until EXPR is true (15 s at most, else FAIL)
 *   check NAME :: EXPR  "ok NAME" when EXPR is true, else "FAIL NAME"
 *   click SELECTOR      a mouse click in the middle of the first element that matches
 *   key KEY             a key pressed and released (ArrowRight, ArrowLeft, Home, End, f)
 *   shot FILE           a PNG of the page
 *   print EXPR          the value of EXPR
 *   console             "ok" when no console error or exception came so far, else FAIL
 * Exit status 0 when every check passed. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int to_fd, from_fd;
static char *inbuf;
static size_t inlen, incap;
static char session[128];
static int next_id = 1;
static int failures, console_errors;
static char console_text[2000];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void json_str(char *out, size_t size, const char *s)
{
	size_t n = 0;
	out[n++] = '"';
	for (; *s && n + 8 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = (char)c;
		} else if (c < 0x20) {
			n += (size_t)snprintf(out + n, size - n, "\\u%04x", c);
		} else {
			out[n++] = (char)c;
		}
	}
	out[n++] = '"';
	out[n] = 0;
}

/* One message out; its id. */
static int send_cmd(const char *method, const char *params)
{
	static char msg[1 << 16];
	int id = next_id++;
	int n = snprintf(msg, sizeof msg, "{\"id\":%d,%s%s%s\"method\":\"%s\",\"params\":%s}", id, session[0] ? "\"sessionId\":\"" : "",
			 session, session[0] ? "\"," : "", method, params ? params : "{}");
	msg[n] = 0;
	size_t len = (size_t)n + 1, off = 0;
	while (off < len) {
		ssize_t k = write(to_fd, msg + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		off += (size_t)k;
	}
	return id;
}

/* The next whole message (NUL-terminated in inbuf), waiting at most until deadline. */
static char *next_message(double deadline, size_t *used)
{
	for (;;) {
		char *z = inlen ? memchr(inbuf, 0, inlen) : NULL;
		if (z) {
			*used = (size_t)(z - inbuf) + 1;
			return inbuf;
		}
		double left = deadline - now();
		if (left <= 0)
			return NULL;
		struct pollfd p = { from_fd, POLLIN, 0 };
		if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		if (inlen + 65536 > incap) {
			incap = (inlen + 65536) * 2;
			inbuf = realloc(inbuf, incap);
			if (!inbuf)
				exit(3);
		}
		ssize_t k = read(from_fd, inbuf + inlen, 65536);
		if (k <= 0)
			return NULL;
		inlen += (size_t)k;
	}
}

static void consume(size_t used)
{
	memmove(inbuf, inbuf + used, inlen - used);
	inlen -= used;
}

/* Events: console errors and exceptions are counted. */
static void on_event(const char *m)
{
	bool bad = (strstr(m, "\"method\":\"Runtime.exceptionThrown\"")) ||
		   (strstr(m, "\"method\":\"Runtime.consoleAPICalled\"") && strstr(m, "\"type\":\"error\"")) ||
		   (strstr(m, "\"method\":\"Log.entryAdded\"") && strstr(m, "\"level\":\"error\""));
	if (!bad)
		return;
	console_errors++;
	size_t n = strlen(console_text);
	if (n + 300 < sizeof console_text)
		snprintf(console_text + n, sizeof console_text - n, "[%.280s] ", m);
}

/* Wait for the answer to id; returns it (a copy the caller frees) or NULL on timeout. */
static char *wait_reply(int id, double secs)
{
	double deadline = now() + secs;
	char key[32];
	int kn = snprintf(key, sizeof key, "{\"id\":%d,", id);
	for (;;) {
		size_t used;
		char *m = next_message(deadline, &used);
		if (!m)
			return NULL;
		if (strncmp(m, key, (size_t)kn) == 0) {
			char *r = strdup(m);
			consume(used);
			return r;
		}
		if (!strstr(m, "\"id\":") || strstr(m, "\"method\":"))
			on_event(m);
		consume(used);
	}
}

static char *call(const char *method, const char *params, double secs)
{
	int id = send_cmd(method, params);
	return id < 0 ? NULL : wait_reply(id, secs);
}

/* The JSON string or scalar after "name": in m, unescaped into out. */
static bool field(const char *m, const char *name, char *out, size_t size)
{
	char key[64];
	snprintf(key, sizeof key, "\"%s\":", name);
	const char *p = strstr(m, key);
	if (!p)
		return false;
	p += strlen(key);
	size_t n = 0;
	if (*p == '"') {
		for (p++; *p && *p != '"' && n + 1 < size; p++) {
			if (*p == '\\' && p[1]) {
				p++;
				out[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
			} else {
				out[n++] = *p;
			}
		}
	} else {
		while (*p && *p != ',' && *p != '}' && n + 1 < size)
			out[n++] = *p++;
	}
	out[n] = 0;
	return true;
}

/* EXPR's value as text; false when it threw. */
static bool eval(const char *expr, char *out, size_t size)
{
	static char params[1 << 15], js[1 << 14];
	json_str(js, sizeof js, expr);
	snprintf(params, sizeof params, "{\"expression\":%s,\"returnByValue\":true,\"awaitPromise\":true}", js);
	char *r = call("Runtime.evaluate", params, 20);
	if (!r) {
		snprintf(out, size, "(no answer)");
		return false;
	}
	bool ok = !strstr(r, "\"exceptionDetails\"");
	if (!field(r, "value", out, size))
		snprintf(out, size, "%s", ok ? "undefined" : "(exception)");
	if (!ok)
		fprintf(stderr, "exception: %.400s\n", r);
	free(r);
	return ok;
}

static bool truthy(const char *expr)
{
	char v[256];
	return eval(expr, v, sizeof v) && strcmp(v, "true") == 0;
}

static const unsigned char *b64table(void)
{
	static unsigned char t[256];
	static bool done;
	if (!done) {
		const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		memset(t, 255, sizeof t);
		for (int i = 0; i < 64; i++)
			t[(unsigned char)a[i]] = (unsigned char)i;
		done = true;
	}
	return t;
}

static void shot(const char *file)
{
	char *r = call("Page.captureScreenshot", "{\"format\":\"png\"}", 30);
	const char *p = r ? strstr(r, "\"data\":\"") : NULL;
	if (!p) {
		printf("FAIL screenshot %s\n", file);
		failures++;
		free(r);
		return;
	}
	p += 8;
	FILE *f = fopen(file, "wb");
	const unsigned char *t = b64table();
	unsigned v = 0;
	int bits = 0;
	for (; *p && *p != '"'; p++) {
		if (*p == '\\')
			continue;
		unsigned d = t[(unsigned char)*p];
		if (d == 255)
			continue;
		v = (v << 6) | d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (f)
				fputc((int)((v >> bits) & 0xFF), f);
		}
	}
	if (f)
		fclose(f);
	printf("ok screenshot %s\n", file);
	free(r);
}

static void click(const char *sel)
{
	char expr[1200], v[256], params[256];
	char js[600];
	json_str(js, sizeof js, sel);
	snprintf(expr, sizeof expr,
		 "(function(){var e=document.querySelector(%s);if(!e)return '';e.scrollIntoView({block:'center'});"
		 "var r=e.getBoundingClientRect();return (r.left+r.width/2)+' '+(r.top+r.height/2);})()",
		 js);
	double x, y;
	if (!eval(expr, v, sizeof v) || sscanf(v, "%lf %lf", &x, &y) != 2) {
		printf("FAIL click %s: no such element\n", sel);
		failures++;
		return;
	}
	const char *types[] = { "mousePressed", "mouseReleased" };
	for (int i = 0; i < 2; i++) {
		snprintf(params, sizeof params, "{\"type\":\"%s\",\"x\":%.1f,\"y\":%.1f,\"button\":\"left\",\"clickCount\":1}", types[i], x, y);
		free(call("Input.dispatchMouseEvent", params, 10));
	}
}

static void key(const char *k)
{
	static const struct {
		const char *key, *code;
		int vk;
	} keys[] = { { "ArrowRight", "ArrowRight", 39 }, { "ArrowLeft", "ArrowLeft", 37 }, { "Home", "Home", 36 },
		     { "End", "End", 35 }, { "f", "KeyF", 70 } };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (strcmp(keys[i].key, k) != 0)
			continue;
		char params[300];
		for (int t = 0; t < 2; t++) {
			snprintf(params, sizeof params, "{\"type\":\"%s\",\"key\":\"%s\",\"code\":\"%s\",\"windowsVirtualKeyCode\":%d%s}",
				 t ? "keyUp" : "keyDown", keys[i].key, keys[i].code, keys[i].vk,
				 !t && strlen(k) == 1 ? ",\"text\":\"f\"" : "");
			free(call("Input.dispatchKeyEvent", params, 10));
		}
		return;
	}
	printf("FAIL key %s: not a key this driver knows\n", k);
	failures++;
}

static bool wait_for(const char *expr, double secs)
{
	double end = now() + secs;
	while (now() < end) {
		if (truthy(expr))
			return true;
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return false;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: cdp CHROMIUM SCRIPT\n");
		return 2;
	}
	FILE *script = fopen(argv[2], "r");
	if (!script) {
		perror(argv[2]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int in[2], out[2];
	if (pipe(in) < 0 || pipe(out) < 0)
		return 3;
	char profile[] = "/tmp/cdp-profile-XXXXXX";
	if (!mkdtemp(profile))
		return 3;
	char dirarg[64];
	snprintf(dirarg, sizeof dirarg, "--user-data-dir=%s", profile);
	pid_t pid = fork();
	if (pid == 0) {
		/* the browser reads commands on 3 and writes answers on 4 */
		int r = dup(in[0]), w = dup(out[1]);
		dup2(r, 3);
		dup2(w, 4);
		for (int fd = 5; fd < 64; fd++)
			close(fd);
		close(in[1]);
		close(out[0]);
		FILE *null = freopen("/dev/null", "w", stdout);
		(void)null;
		null = freopen("/dev/null", "w", stderr);
		(void)null;
		execlp(argv[1], argv[1], "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		       "--disable-background-networking", "--disable-component-update", "--disable-sync",
		       "--remote-debugging-pipe", "--window-size=1280,1000", dirarg, "about:blank", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	to_fd = in[1];
	from_fd = out[0];
	char v[4096];
	char *r = call("Target.createTarget", "{\"url\":\"about:blank\"}", 30);
	char target[128];
	if (!r || !field(r, "targetId", target, sizeof target)) {
		printf("FAIL the browser did not start (%s)\n", argv[1]);
		failures++;
		goto out;
	}
	free(r);
	char params[512];
	snprintf(params, sizeof params, "{\"targetId\":\"%s\",\"flatten\":true}", target);
	r = call("Target.attachToTarget", params, 30);
	if (!r || !field(r, "sessionId", session, sizeof session)) {
		printf("FAIL cannot attach to the page\n");
		failures++;
		free(r);
		goto out;
	}
	free(r);
	free(call("Runtime.enable", NULL, 10));
	free(call("Log.enable", NULL, 10));
	free(call("Page.enable", NULL, 10));
	char line[8192];
	while (fgets(line, sizeof line, script)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		char *arg = strchr(line, ' ');
		if (arg)
			*arg++ = 0;
		else
			arg = line + strlen(line);
		if (!strcmp(line, "goto")) {
			char js[2048], nav[2100];
			json_str(js, sizeof js, arg);
			snprintf(nav, sizeof nav, "{\"url\":%s}", js);
			free(call("Page.navigate", nav, 30));
			if (!wait_for("document.readyState === 'complete'", 15)) {
				printf("FAIL goto %s: not loaded\n", arg);
				failures++;
			}
		} else if (!strcmp(line, "wait")) {
			if (!wait_for(arg, 15)) {
				printf("FAIL wait %s\n", arg);
				failures++;
			}
		} else if (!strcmp(line, "check")) {
			char *sep = strstr(arg, " :: ");
			if (!sep) {
				printf("FAIL check without ' :: ': %s\n", arg);
				failures++;
				continue;
			}
			*sep = 0;
			if (truthy(sep + 4)) {
				printf("ok %s\n", arg);
			} else {
				eval(sep + 4, v, sizeof v);
				printf("FAIL %s (%s)\n", arg, v);
				failures++;
			}
		} else if (!strcmp(line, "click")) {
			click(arg);
		} else if (!strcmp(line, "key")) {
			key(arg);
		} else if (!strcmp(line, "shot")) {
			shot(arg);
		} else if (!strcmp(line, "viewport")) {
			/* "viewport W H": a screen of that size, as a phone's (W 0: the window's own) */
			int w = 0, hgt = 0;
			char metrics[200];
			if (sscanf(arg, "%d %d", &w, &hgt) == 2 && w > 0) {
				snprintf(metrics, sizeof metrics,
					 "{\"width\":%d,\"height\":%d,\"deviceScaleFactor\":1,\"mobile\":true}", w, hgt);
				free(call("Emulation.setDeviceMetricsOverride", metrics, 10));
			} else
				free(call("Emulation.clearDeviceMetricsOverride", NULL, 10));
		} else if (!strcmp(line, "print")) {
			eval(arg, v, sizeof v);
			printf("%s\n", v);
		} else if (!strcmp(line, "console")) {
			/* let late events arrive */
			eval("1", v, sizeof v);
			if (console_errors) {
				printf("FAIL %d console errors: %s\n", console_errors, console_text);
				failures++;
			} else {
				printf("ok no console error\n");
			}
		} else {
			printf("FAIL unknown command %s\n", line);
			failures++;
		}
		fflush(stdout);
	}
out:
	fclose(script);
	free(call("Browser.close", NULL, 5));
	close(to_fd);
	close(from_fd);
	int st;
	for (int i = 0; i < 50 && waitpid(pid, &st, WNOHANG) == 0; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	char rm[128];
	snprintf(rm, sizeof rm, "rm -rf %s", profile);
	if (system(rm) != 0)
		fprintf(stderr, "cannot remove %s\n", profile);
	free(inbuf);
	return failures ? 1 : 0;
}
