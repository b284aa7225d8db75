// SPDX-License-Identifier: GPL-2.0-only
/*
 * init.c - the whole user space of a kparity test boot.
 *
 * Built static against the kernel tree's own tools/include/nolibc, so every
 * target gets its init from the cross compiler alone: no C library, no
 * foreign-architecture packages. The console lines it prints are what
 * scripts/boot-verdict.sh reads; keep the two in step.
 *
 * The boot's token comes from kparity.token= on the kernel command line
 * and is echoed with the marker and the verdict, so a console log can only
 * pass with the lines of the boot that produced it.
 *
 * /bin/check is a "#!/init" script: running it checks fork, execve through
 * binfmt_script and binfmt_elf, and wait, the way a shell runs a command.
 * Started that way, this program is the command and exits with CHILD_EXIT.
 */

#define CHILD_EXIT 42
#define BUFSZ 4096

static char buf[BUFSZ];
static char token[128] = "none";
static int failures;

/* say: one console line with the prefix the verdict script looks for */
static void say(const char *what, const char *text)
{
	printf("kparity-init: %s %s\n", what, text);
}

static void check(const char *name, int ok)
{
	say(ok ? "ok" : "FAILED", name);
	if (!ok)
		failures++;
}

/* slurp: read up to BUFSZ - 1 bytes of PATH into buf; -1 on error */
static long slurp(const char *path)
{
	long n, len = 0;
	int fd;

	fd = open(path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	while (len < BUFSZ - 1 && (n = read(fd, buf + len, BUFSZ - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : len;
}

/* first_line: cut buf at its first newline */
static char *first_line(void)
{
	char *nl = strchr(buf, '\n');

	if (nl)
		*nl = '\0';
	return buf;
}

/* find_token: point token at kparity.token=VALUE in /proc/cmdline */
static void find_token(void)
{
	static const char key[] = "kparity.token=";
	char *p = buf, *end;

	if (slurp("/proc/cmdline") < 0)
		return;
	for (; *p; p++) {
		if ((p == buf || p[-1] == ' ') &&
		    memcmp(p, key, sizeof(key) - 1) == 0) {
			p += sizeof(key) - 1;
			for (end = p; *end && *end != ' ' && *end != '\n'; end++)
				;
			*end = '\0';
			/* no strdup: nolibc's malloc needs mmap, missing on arm */
			strlcpy(token, p, sizeof(token));
			return;
		}
	}
}

/* run_check: run /bin/check and wait for it, as a shell runs a command */
static int run_check(void)
{
	char *argv[] = { "/bin/check", NULL };
	char *envp[] = { NULL };
	int status = 0;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		execve(argv[0], argv, envp);
		exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EXIT;
}

int main(int argc, char **argv)
{
	/* started by the kernel for /bin/check: argv is /init /bin/check */
	if (getpid() != 1) {
		say("command", argc > 1 ? argv[1] : argv[0]);
		return CHILD_EXIT;
	}

	check("mount /proc", mount("proc", "/proc", "proc", 0, "") == 0);
	find_token();
	say("marker", token);
	say("version", slurp("/proc/version") > 0 ? first_line() : "unreadable");
	check("mount /sys", mount("sysfs", "/sys", "sysfs", 0, "") == 0 &&
			    slurp("/sys/kernel/uevent_seqnum") > 0);
	check("read /proc/cpuinfo", slurp("/proc/cpuinfo") > 0);
	check("run /bin/check", run_check());

	say(failures ? "FAIL" : "PASS", token);
	/*
	 * Restart rather than power off: x86 tinyconfig has no ACPI, and
	 * under -no-reboot QEMU ends on a restart on every target.
	 */
	reboot(LINUX_REBOOT_CMD_RESTART);
	say("error", "reboot failed");
	return 1;
}
