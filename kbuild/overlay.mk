# SPDX-License-Identifier: GPL-2.0-only
#
# kparity Kbuild overlay: Clang-aware, cached and audited replacements for
# the kernel's probe macros (try-run, cc-option and friends).
#
# Enable it on an unpatched tree by naming this file in MAKEFILES, by its
# absolute path (make skips a missing entry without a word, and resolves a
# relative one after -C); kbuild/overlay-path.sh prints the argument:
#
#   make -C ~/linux O=out LLVM=1 "$(~/kparity/kbuild/overlay-path.sh)"
#
# With V=1 the first make that probes prints one line saying it is on.
# Make reads MAKEFILES before the kernel's own makefiles in every make it
# runs, sub-makes included. The macros below are defined with 'override', so
# the kernel's later ordinary definitions (scripts/Makefile.compiler in 5.13
# and later, scripts/Kbuild.include before) leave them in place. Names,
# arguments and results are those of the kernel's macros, so arch and driver
# Makefiles work unchanged. Documentation/kbuild-overlay.md has the details.
#
# Settings (command line or environment; otherwise the CONFIG_KPARITY_PROBE_*
# switches from kconfig/Kconfig.kparity; otherwise the default):
#   KPARITY_STRICT=0|1    strict answers for LLVM tools (default 1)
#   KPARITY_CACHE=0|1     cache answers in the build directory (default 1)
#   KPARITY_AUDIT=0|1     record every probe in .kparity/audit.log (default 0)
#   KPARITY_OUT=DIR       where .kparity/ goes (default: the build directory)
#   KPARITY_KCONFIG=0     leave KBUILD_KCONFIG alone (no kparity menu)

# The overlay is read by every make of a build: it defines variables only,
# and runs no process until a probe is asked for.
ifndef __kparity_overlay
__kparity_overlay := 1

__kp-self  := $(abspath $(lastword $(MAKEFILE_LIST)))
__kp-top   := $(patsubst %/kbuild/,%,$(dir $(__kp-self)))
__kp-probe := $(__kp-top)/kbuild/probe.sh

# __kp-source
# Usage: $(shell set -- ARGS...; $(__kp-source))
# Runs probe.sh with ARGS in the shell $(shell) starts, which saves a
# process; TOPDIR tells it where the checkout is.
__kp-source = TOPDIR=$(call __kp-sq,$(__kp-top)); . $(call __kp-sq,$(__kp-probe))
__kp-comma := ,

# __kp-sq
# Usage: $(call __kp-sq,text)
# text as one single-quoted shell word.
__kp-sq = '$(subst ','\'',$(1))'

# __kp-setting
# Usage: $(call __kp-setting,NAME,default)
# 1 or 0: KPARITY_NAME from the command line or environment, else
# CONFIG_KPARITY_PROBE_NAME when .config has the kparity entries, else default.
__kp-setting = $(strip \
	$(if $(filter command% environment%,$(origin KPARITY_$(1))),\
		$(if $(filter 0 n no,$(KPARITY_$(1))),0,1),\
	$(if $(CONFIG_KPARITY_OVERLAY),\
		$(if $(filter y,$(CONFIG_KPARITY_PROBE_$(1))),1,0),\
	$(2))))

# __kp-srctree
# Usage: $(__kp-srctree)
# The kernel source tree.
__kp-srctree = $(or $(abs_srctree),$(srctree))

# __kp-out
# Usage: $(__kp-out)
# Where .kparity/ lives: the build directory (O=), the external module's
# directory for M= builds, never the source tree.
__kp-out     = $(or $(KPARITY_OUT),$(if $(KBUILD_EXTMOD),$(firstword $(KBUILD_EXTMOD)),$(or $(abs_objtree),$(CURDIR))))/.kparity

# ---- layout ------------------------------------------------------------
# 5.13 and later keep the probes in scripts/Makefile.compiler, older trees
# in scripts/Kbuild.include. Anything else is refused, since the overlay
# would silently replace macros with different meanings.

# __kp-layout
# Usage: $(__kp-layout)
# compiler, include, or empty for a layout the overlay does not know.
__kp-layout = $(if $(wildcard $(__kp-srctree)/scripts/Makefile.compiler),compiler,$(if \
	$(findstring cc-option =,$(file <$(__kp-srctree)/scripts/Kbuild.include)),include))

# __kp-check
# Usage: $(__kp-check)
# Expands to nothing; stops make on a tree of unknown layout or when the
# cache format cannot be read. Checked once per make, at the first probe,
# which also announces the overlay with V=1.
__kp-check = $(if $(__kp-checked),,$(eval __kp-checked := $(__kp-layout))$(if $(__kp-checked),,\
	$(error kparity: unknown Kbuild layout in '$(__kp-srctree)': neither scripts/Makefile.compiler nor cc-option in scripts/Kbuild.include))$(if \
	$(and $(__kp-magic),$(__kp-tag),$(__kp-codes)),,$(error kparity: cannot read the cache format '$(__kp-format-file)'))$(__kp-announce))

# ---- the tree's questions ----------------------------------------------
# Stock Kbuild has put some questions differently from one release to the
# next. The overlay asks each as the tree's own macro does, so that its
# stock answers (GCC's, KPARITY_STRICT=0's, the audit's stock column) are
# the tree's, and the question as asked is in the cache key. Each way a
# tree can differ is one trait: a row of this table names it and gives the
# text of the tree's probe file that shows it; the helpers below the table
# are the only places that act on a trait.
#
#   wno    __cc-option asks about -Wfoo for -Wno-foo, since GCC takes any
#          -Wno-foo without a word (6.12; 6.1 asks about -Wno-foo itself)
#   fatal  as-instr makes the assembler's warnings errors (6.12)

__kp-trait-wno   := $$(3:-Wno-%=-W%)
__kp-trait-fatal := -Wa$$(comma)--fatal-warnings
__kp-trait-names := wno fatal

# __kp-probe-file
# Usage: $(__kp-probe-file)
# The tree's file that defines the probe macros, for its layout.
__kp-probe-file = $(__kp-srctree)/scripts/$(if $(filter include,$(__kp-layout)),Kbuild.include,Makefile.compiler)

# __kp-traits-in
# Usage: $(call __kp-traits-in,text)
# The names of the traits that text shows.
__kp-traits-in = $(foreach t,$(__kp-trait-names),$(if $(findstring $(__kp-trait-$(t)),$(1)),$(t)))

# __kp-traits
# Usage: $(__kp-traits)
# The tree's traits, read from its probe file once per make.
__kp-traits = $(if $(__kp-traits-read),,$(eval __kp-traits-read := - $$(call \
	__kp-traits-in,$$(file <$$(__kp-probe-file)))))$(filter-out -,$(__kp-traits-read))

# __kp-cc-asked
# Usage: $(call __kp-cc-asked,option)
# The option as the tree's __cc-option puts it to the compiler.
__kp-cc-asked = $(if $(filter wno,$(__kp-traits)),$(patsubst -Wno-%,-W%,$(1)),$(1))

# __kp-as-instr-flags
# Usage: $(__kp-as-instr-flags)
# What the tree's as-instr adds after KBUILD_AFLAGS.
__kp-as-instr-flags = $(if $(filter fatal,$(__kp-traits)),-Wa$(__kp-comma)--fatal-warnings)

# ---- the probe ---------------------------------------------------------

__kp-empty :=
__kp-space := $(__kp-empty) $(__kp-empty)
__kp-tab   := $(__kp-empty)	$(__kp-empty)

define __kp-nl


endef

# __kp-opts
# Usage: $(__kp-opts)
# probe.sh options for the current settings.
__kp-opts = $(if $(__kp-cache-on),-d $(call __kp-sq,$(__kp-out)/probes)) \
	$(if $(__kp-audit-on),-a $(call __kp-sq,$(__kp-out)/audit.log)) \
	$(if $(filter 1,$(__kp-strict)),,-n) \
	$(if $(findstring 1,$(KBUILD_VERBOSE)),-v) \
	$(if $(__kp-srctree),-s $(call __kp-sq,$(__kp-srctree)))

# __kp-strict
# Usage: $(__kp-strict)
# 1 for strict answers for LLVM tools, else 0.
__kp-strict   = $(call __kp-setting,STRICT,1)

# __kp-audit-on
# Usage: $(__kp-audit-on)
# Non-empty when every probe goes into the audit log.
__kp-audit-on = $(filter 1,$(call __kp-setting,AUDIT,0))

# __kp-in-srctree
# Usage: $(call __kp-in-srctree,dir)
# Non-empty when dir is the source tree or lies inside it.
__kp-in-srctree = $(if $(__kp-srctree),$(filter $(abspath $(__kp-srctree))/%,$(abspath $(1))/ \
	$(if $(realpath $(1)),$(realpath $(1))/)))

# __kp-cache-on
# Usage: $(__kp-cache-on)
# Non-empty when answers are cached: the setting is on and the cache would
# not be inside the source tree.
__kp-cache-on = $(if $(filter 1,$(call __kp-setting,CACHE,1)),$(if $(call __kp-in-srctree,$(__kp-out)),,1))

# __kp-shell
# Usage: $(call __kp-shell,probe-options,macro,tool,base-flags,option)
# y or n from probe.sh, given probe-options (__kp-ask-opts, and for an
# answer to be cached __kp-store-opts) after the settings' options. Flags
# reach the shell unquoted, exactly as in the kernel's own try-run commands.
__kp-shell = $(shell set -- $(__kp-opts) $(1) \
	$(2) $(call __kp-sq,$(3)) $(4) -- $(5); $(__kp-source))

# __kp-ask-opts
# Usage: $(call __kp-ask-opts,macro,shown-flag)
# The probe.sh options of every probe: the option as the audit log shows
# it, and for try-run the linker.
__kp-ask-opts = -f $(call __kp-sq,$(2))$(if $(filter try-run,$(1)), -l $(call __kp-sq,$(LD)))

# ---- tool identities ----------------------------------------------------
# A cached answer is only as good as the identity of the tool that gave it:
# its resolved binary (path, size, mtime, inode), version line and target.
# Finding that out takes processes, so the first make that probes asks
# probe.sh once for $(CC) and $(LD) and exports the result in KPARITY_IDS;
# the sub-makes of the same build (Kbuild runs hundreds) take it from there
# when it was made for the same PATH, and then a warm probe runs nothing.
# KPARITY_IDS holds words: kparity-ids-1, path^=PATH, TOOL^=HASH,NAME for
# each tool command, where text is encoded by __kp-enc, and unread^=BUCKET
# for each cache file make must leave alone.

# __kp-enc
# Usage: $(call __kp-enc,text)
# text as one word without '%' or the '^=' separator.
__kp-enc = $(subst $(__kp-space),^s,$(subst %,^p,$(subst ^,^c,$(1))))

# __kp-dec
# Usage: $(call __kp-dec,word)
# The text __kp-enc made word of.
__kp-dec = $(subst ^c,^,$(subst ^p,%,$(subst ^s, ,$(1))))

__kp-ids-head := kparity-ids-1 path^=$(call __kp-enc,$(PATH))

# Inherited identities are used only by a sub-make, only when they are
# well-formed and made for the same PATH, and they are never expanded.
__kp-ids-env := $(if $(filter-out 0,$(MAKELEVEL)),$(if $(filter environment,$(origin KPARITY_IDS)),$(value KPARITY_IDS)))
ifeq ($(if $(findstring $$,$(__kp-ids-env)),,$(filter $(__kp-ids-head),$(wordlist 1,2,$(__kp-ids-env)))),$(__kp-ids-head))
KPARITY_IDS := $(__kp-ids-env)
else
KPARITY_IDS := $(__kp-ids-head)
endif
export KPARITY_IDS

# __kp-learn
# Usage: $(call __kp-learn,tool)
# Expands to nothing; adds the identities of tool, $(CC) and $(LD), those
# not known yet, to KPARITY_IDS with one probe.sh run. The same run names
# the cache files make cannot read (unread^=BUCKET, or unread^=* for all):
# $(file <) would stop make on them, so their probes go to probe.sh.
__kp-learn = $(call __kp-learn-these,$(call __kp-unknown,$(1)))

# __kp-unknown
# Usage: $(call __kp-unknown,tool)
# The encoded commands among tool, $(CC) and $(LD) with no identity yet.
__kp-unknown = $(foreach e,$(sort $(call __kp-enc,$(1)) $(call __kp-enc,$(CC)) $(call __kp-enc,$(LD))),$(if \
	$(filter $(e)^=%,$(KPARITY_IDS)),,$(e)))

# __kp-learn-these
# Usage: $(call __kp-learn-these,encoded-tools)
# Expands to nothing; adds what probe.sh says of encoded-tools to KPARITY_IDS.
__kp-learn-these = $(if $(1),$(call __kp-add-ids,$(filter $(addsuffix ^=%,$(1)) unread^=%,$(call \
	__kp-ident,$(1)))))

# __kp-add-ids
# Usage: $(call __kp-add-ids,words)
# Expands to nothing; appends words to KPARITY_IDS. The words are the
# value of $(1) when eval expands it, never make text of their own.
__kp-add-ids = $(eval KPARITY_IDS += $$(1))

# __kp-ident
# Usage: $(call __kp-ident,encoded-tools)
# probe.sh's identity lines for encoded-tools, as words: NAME^=HASH,VERSION
# (or NAME^=-) for each, then the unread^= words.
__kp-ident = $(shell set -- $(__kp-opts) -i $(foreach e,$(1),$(call __kp-sq,$(e)) \
	$(call __kp-sq,$(call __kp-dec,$(e)))); $(__kp-source))

# __kp-id-of
# Usage: $(call __kp-id-of,encoded-tool)
# HASH,NAME for the tool when KPARITY_IDS has it, else empty.
__kp-id-of = $(firstword $(patsubst $(1)^=%,%,$(filter $(1)^=%,$(KPARITY_IDS))))

# __kp-id
# Usage: $(call __kp-id,tool)
# HASH,NAME for the tool command, or - when there is no such tool.
__kp-id = $(or $(call __kp-id-of,$(call __kp-enc,$(1))),$(call __kp-learn,$(1))$(call \
	__kp-id-of,$(call __kp-enc,$(1))),-)

# __kp-ids
# Usage: $(call __kp-ids,macro,tool)
# The words TOOL-HASH TOOL-NAME LD-HASH that an answer to macro, asked of
# tool, is cached under; LD-HASH is - but for try-run, TOOL-HASH - when
# there is no such tool (its answers are not cached).
__kp-ids = $(subst $(__kp-comma), ,$(call __kp-id,$(2))) $(firstword $(subst $(__kp-comma), ,$(if \
	$(filter try-run,$(1)),$(call __kp-id,$(LD)),-)))

# ---- saying so ----------------------------------------------------------
# With V=1 the first make of a build that probes says, in one line, that the
# overlay is on, which compiler and linker answer, and where the cache is.

# __kp-announce
# Usage: $(__kp-announce)
# Expands to nothing; with V=1, and unless a parent make knew $(CC)
# already, prints that line (learning the identities to do so).
__kp-announce = $(if $(findstring 1,$(V)),$(if $(call __kp-id-of,$(call __kp-enc,$(CC))),,$(call \
	__kp-learn,$(CC))$(info kparity: overlay $(__kp-self): CC $(call __kp-said,$(CC)), LD $(call \
	__kp-said,$(LD)), cache $(__kp-cache-said))))

# __kp-cache-said
# Usage: $(__kp-cache-said)
# The cache directory, or "off" and why when the setting is on.
__kp-cache-said = $(if $(__kp-cache-on),$(__kp-out)/probes,off$(if $(filter 1,$(call \
	__kp-setting,CACHE,1)), ($(__kp-out) is inside the source tree: use an O= outside it)))

# __kp-said
# Usage: $(call __kp-said,tool)
# "TOOL = NAME (HASH)", or "TOOL not found", for a known tool command.
__kp-said = $(call __kp-said-id,$(1),$(subst $(__kp-comma), ,$(call __kp-id-of,$(call __kp-enc,$(1)))))

# __kp-said-id
# Usage: $(call __kp-said-id,tool,hash name)
__kp-said-id = $(strip $(1)) $(if $(filter-out -,$(2)),= $(word 2,$(2)) ($(word 1,$(2))),not found)

# ---- the cache, read by make --------------------------------------------
# Answers live in bucket files, .kparity/probes/HASH-MACRO[-NAME], one
# record a line after a magic first line; probe.sh writes them (atomically,
# under a lock). Make reads them as text: a record counts only when the
# whole key matches and its answer field is one of the known answers;
# nothing in the file is ever expanded or evaluated.

# kbuild/cache-format is the one definition of the format (probe.sh
# sources the same file): NAME=VALUE lines, lists comma-separated.
__kp-format-file := $(__kp-top)/kbuild/cache-format
__kp-format      := $(file <$(__kp-format-file))

# __kp-format-of
# Usage: $(call __kp-format-of,name)
# The words of name's value in kbuild/cache-format.
__kp-format-of    = $(subst $(__kp-comma), ,$(patsubst $(1)=%,%,$(filter $(1)=%,$(__kp-format))))

__kp-magic   := $(call __kp-format-of,kp_cache_magic)
__kp-tag     := $(call __kp-format-of,kp_cache_tag)
__kp-reasons := $(call __kp-format-of,kp_cache_reasons)
__kp-codes   := $(foreach a,$(call __kp-format-of,kp_cache_answers),$(foreach r,$(__kp-reasons),$(foreach \
	s,$(call __kp-format-of,kp_cache_stock),$(a):$(r):$(s))))

# __kp-esc
# Usage: $(call __kp-esc,text)
# text with '\', tab and newline escaped: one field of a record.
__kp-esc = $(subst $(__kp-nl),\n,$(subst $(__kp-tab),\t,$(subst \,\\,$(1))))

# __kp-key
# Usage: $(call __kp-key,macro,tool-hash,ld-hash,base-flags,option)
# The record key: everything that can change the answer.
__kp-key = $(__kp-tag)$(__kp-tab)$(__kp-strict)$(__kp-tab)$(1)$(__kp-tab)$(2)$(__kp-tab)$(3)$(__kp-tab)$(call \
	__kp-esc,$(4))$(__kp-tab)$(call __kp-esc,$(5))$(__kp-tab)

# __kp-bucket
# Usage: $(call __kp-bucket,macro,tool-hash,option)
# The bucket's file name: the option's name joins it when the option is
# one word without '/' (its value after '=' or ',' does not).
__kp-bucket = $(2)-$(1)$(if $(filter 1,$(words $(3))),$(if $(findstring /,$(3)),,-$(firstword \
	$(subst =, ,$(subst $(__kp-comma), ,$(3))))))

# __kp-find
# Usage: $(call __kp-find,file,key)
# The answer field (y:ok:y) of key's record in file, or empty.
__kp-find = $(call __kp-pick,$(call __kp-scan,$(file <$(1)),$(__kp-nl)$(2)))

# __kp-scan
# Usage: $(call __kp-scan,bucket-text,newline key)
# What follows each line that starts with key, as words; nothing unless
# the text starts with the magic.
__kp-scan = $(if $(filter $(__kp-magic),$(firstword $(1))),$(patsubst @kp@%,%,$(filter \
	@kp@%,$(subst $(2),$(__kp-space)@kp@,$(__kp-nl)$(1)))))
# __kp-pick
# Usage: $(call __kp-pick,words)
# The one word, when it is a known answer field; else empty.
__kp-pick = $(if $(filter 1,$(words $(1))),$(filter $(__kp-codes),$(1)))

# __kp-run
# Usage: $(call __kp-run,macro,tool,base-flags,option,shown-flag)
# y or n: does tool accept option on top of base-flags? shown-flag is the
# option as the audit log shows it.
__kp-run = $(__kp-check)$(if $(__kp-cache-on),$(call __kp-cached,$(1) $(call __kp-ids,$(1),$(2)),$(2),$(3),$(4),$(5)),$(call \
	__kp-shell,$(call __kp-ask-opts,$(1),$(5)),$(1),$(2),$(3),$(4)))

# The lookup passes one word list, the probe: MACRO TOOL-HASH TOOL-NAME
# LD-HASH (from __kp-ids) and, once read, the cached ANSWER:REASON:STOCK.

# __kp-cached
# Usage: $(call __kp-cached,probe,tool,base-flags,option,shown-flag)
# From the cache when it holds the answer (and stock Kbuild's, when
# auditing into an existing log); else from probe.sh, which stores it. A
# tool that cannot be identified is asked, never cached.
__kp-cached = $(if $(filter -,$(word 2,$(1))),$(call __kp-shell,$(call __kp-ask-opts,$(firstword $(1)),$(5)),$(firstword \
	$(1)),$(2),$(3),$(4)),$(call __kp-use,$(1) $(call __kp-field,$(1),$(3),$(4)),$(2),$(3),$(4),$(5)))

# __kp-field
# Usage: $(call __kp-field,probe,base-flags,option)
# The answer field (y:ok:y) the cache holds for the question, or empty.
__kp-field = $(call __kp-field-in,$(call __kp-bucket-of,$(1),$(3)),$(call __kp-key-of,$(1),$(2),$(3)))

# __kp-field-in
# Usage: $(call __kp-field-in,bucket,key)
# key's answer field in bucket, or empty; empty too for a bucket probe.sh
# said make cannot read.
__kp-field-in = $(if $(filter unread^=$(1) unread^=*,$(KPARITY_IDS)),,$(call __kp-find,$(__kp-out)/probes/$(1),$(2)))

# __kp-bucket-of
# Usage: $(call __kp-bucket-of,probe,option)
__kp-bucket-of = $(call __kp-bucket,$(word 1,$(1)),$(word 2,$(1)),$(2))

# __kp-key-of
# Usage: $(call __kp-key-of,probe,base-flags,option)
__kp-key-of = $(call __kp-key,$(word 1,$(1)),$(word 2,$(1)),$(word 4,$(1)),$(2),$(3))

# __kp-use
# Usage: $(call __kp-use,probe,tool,base-flags,option,shown-flag)
# The probe's cached answer when it is usable, else probe.sh's, which
# stores it under the probe's key.
__kp-use = $(if $(call __kp-usable,$(subst :, ,$(word 5,$(1)))),$(call __kp-hit,$(subst :, ,$(word 5,$(1))),$(firstword \
	$(1)),$(5),$(word 3,$(1))),$(call __kp-shell,$(call __kp-ask-opts,$(firstword $(1)),$(5)) $(call \
	__kp-store-opts,$(1),$(3),$(4)),$(firstword $(1)),$(2),$(3),$(4)))

# __kp-store-opts
# Usage: $(call __kp-store-opts,probe,base-flags,option)
# The probe.sh options that have it store its answer: the identities the
# key names, the bucket and the key.
__kp-store-opts = -t $(word 2,$(1)) -T $(word 4,$(1)) -b $(call __kp-sq,$(call __kp-bucket-of,$(1),$(3))) -k $(call \
	__kp-sq,$(call __kp-key-of,$(1),$(2),$(3)))

# __kp-audit-log
# Usage: $(__kp-audit-log)
__kp-audit-log = $(__kp-out)/audit.log

# __kp-usable
# Usage: $(call __kp-usable,answer reason stock)
# Non-empty when a cached answer will do: there is one, and when auditing
# it has stock Kbuild's answer too and the log exists.
__kp-usable = $(if $(1),$(if $(__kp-audit-on),$(if $(filter -,$(word 3,$(1))),,$(wildcard $(__kp-audit-log))),1))

# __kp-hit
# Usage: $(call __kp-hit,answer reason stock,macro,shown,tool-name)
# The cached answer, recorded in the audit log by make itself when
# auditing (probe.sh creates the log, with the right owner).
__kp-hit = $(if $(__kp-audit-on),$(file >>$(__kp-audit-log),$(call __kp-audit-line,$(2),$(3),$(4),$(1))))$(word 1,$(1))

# __kp-audit-line
# Usage: $(call __kp-audit-line,macro,shown,tool-name,answer reason stock)
# One audit record, for an answer from the cache.
__kp-audit-line = $(1)$(__kp-tab)$(call __kp-flat,$(2))$(__kp-tab)$(3)$(__kp-tab)$(call \
	__kp-tabs,$(wordlist 1,2,$(4)))$(__kp-tab)cached$(__kp-tab)$(word 3,$(4))

# __kp-flat
# Usage: $(call __kp-flat,text)
# text with tabs and newlines made spaces: one field of an audit record.
__kp-flat = $(subst $(__kp-nl), ,$(subst $(__kp-tab), ,$(1)))

# __kp-tabs
# Usage: $(call __kp-tabs,words)
# words separated by tabs.
__kp-tabs = $(subst $(__kp-space),$(__kp-tab),$(1))

# __kp-if
# Usage: $(call __kp-if,y-or-n,if-yes,if-no)
# if-yes for y, else if-no.
__kp-if = $(if $(filter y,$(1)),$(2),$(3))

# ---- the kernel's macros -----------------------------------------------

# try-run
# Usage: option = $(call try-run, $(CC)...-o "$$TMP",option-ok,otherwise)
# The command's exit status decides, as in Kbuild; the answer is cached
# under the command's text and the identity of $(CC) and $(LD).
override try-run = $(call __kp-if,$(call __kp-run,try-run,$(CC),,$(call __kp-sq,$(1)),$(1)),$(2),$(3))

# as-option
# Usage: aflags-y += $(call as-option,-Wa$(comma)-isa=foo,)
override as-option = $(call __kp-if,$(call __kp-run,as-option,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS),$(1),$(strip $(1))),$(1),$(2))

# as-instr
# Usage: aflags-y += $(call as-instr,instr,option1,option2)
# The instruction is one double-quoted word, as in Kbuild's printf "%b".
override as-instr = $(call __kp-if,$(call __kp-run,as-instr,$(CC),\
	$(CLANG_FLAGS) $(KBUILD_AFLAGS) $(__kp-as-instr-flags),"$(1)",$(strip $(1))),$(2),$(3))

# __cc-option
# Usage: MY_CFLAGS += $(call __cc-option,$(CC),$(MY_CFLAGS),-march=winchip-c6,-march=i586)
# The option is asked about as the tree asks (__kp-cc-asked), and so in
# cc-option and cc-option-yn.
override __cc-option = $(call __kp-if,$(call __kp-run,__cc-option,$(1),$(2),$(call \
	__kp-cc-asked,$(3)),$(strip $(call __kp-cc-asked,$(3)))),$(3),$(4))

# cc-option
# Usage: cflags-y += $(call cc-option,-march=winchip-c6,-march=i586)
override cc-option = $(call __kp-if,$(call __kp-run,cc-option,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS),$(call __kp-cc-asked,$(1)),$(strip $(call __kp-cc-asked,$(1)))),$(1),$(2))

# cc-option-yn
# Usage: flag := $(call cc-option-yn,-march=winchip-c6)
override cc-option-yn = $(call __kp-if,$(call __kp-run,cc-option-yn,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS),$(call __kp-cc-asked,$(1)),$(strip $(call __kp-cc-asked,$(1)))),y,n)

# cc-disable-warning
# Usage: cflags-y += $(call cc-disable-warning,unused-but-set-variable)
# Asks about -Wname, since GCC accepts any -Wno-name silently.
override cc-disable-warning = $(call __kp-if,$(call __kp-run,cc-disable-warning,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS),-W$(strip $(1)),-W$(strip $(1))),-Wno-$(strip $(1)))

# ld-option
# Usage: KBUILD_LDFLAGS += $(call ld-option, -X, -Y)
override ld-option = $(call __kp-if,$(call __kp-run,ld-option,$(LD),\
	$(KBUILD_LDFLAGS),$(1),$(strip $(1))),$(1),$(2))

# ---- version helpers (no probes) ----------------------------------------

# Version numbers are compared in make itself, with no shell: the kernel
# calls these in every make that reads an arch Makefile.

# __kp-digits
# Usage: $(call __kp-digits,number)
# The number's characters as words: 120200 gives 1 2 0 2 0 0.
__kp-digits = $(strip $(subst 9,9 ,$(subst 8,8 ,$(subst 7,7 ,$(subst 6,6 ,$(subst 5,5 ,$(subst \
	4,4 ,$(subst 3,3 ,$(subst 2,2 ,$(subst 1,1 ,$(subst 0,0 ,$(1))))))))))))

# __kp-plain
# Usage: $(call __kp-plain,number)
# Non-empty when number is one word of decimal digits without a leading 0.
__kp-plain = $(if $(filter 1,$(words $(1))),$(if $(filter-out 0 1 2 3 4 5 6 7 8 9,$(call \
	__kp-digits,$(1))),,$(if $(filter 0%,$(1)),$(filter 0,$(1)),y)))

# __kp-ge
# Usage: $(call __kp-ge,a,b)
# y when the plain numbers a >= b: the longer number is the larger, and
# numbers of one length compare as text.
__kp-ge = $(call __kp-ge-len,$(1),$(2),$(words $(call __kp-digits,$(1))),$(words $(call __kp-digits,$(2))))

# __kp-ge-len
# Usage: $(call __kp-ge-len,a,b,digits-of-a,digits-of-b)
__kp-ge-len = $(if $(filter $(3),$(4)),$(if $(filter $(2),$(firstword $(sort $(1) $(2)))),y),$(if \
	$(word $(3),$(call __kp-digits,$(2))),,y))

# __kp-min-version
# Usage: $(call __kp-min-version,version,minimum)
# y when version (empty counts as 0) >= minimum, as the kernel's shell
# test answers; a value that is not a plain number goes to that test.
__kp-min-version = $(if $(and $(call __kp-plain,$(or $(1),0)),$(call __kp-plain,$(strip $(2)))),$(call \
	__kp-ge,$(or $(1),0),$(strip $(2))),$(shell [ $(or $(1),0)0 -ge $(strip $(2))0 ] && echo y))

# gcc-min-version
# Usage: cflags-$(call gcc-min-version, 70100) += -foo
override gcc-min-version = $(call __kp-min-version,$(CONFIG_GCC_VERSION),$(1))

# clang-min-version
# Usage: cflags-$(call clang-min-version, 110000) += -foo
override clang-min-version = $(call __kp-min-version,$(CONFIG_CLANG_VERSION),$(1))

# cc-ifversion
# Usage: EXTRA_CFLAGS += $(call cc-ifversion, -lt, 0402, -O1)
# For trees older than 6.1 that still use it: compares GCC's version as
# four digits (major, minor), 0 with other compilers.
override cc-ifversion = $(shell [ $(or $(CONFIG_GCC_VERSION),0)0 $(strip $(1)) $(strip $(2))000 ] && \
	echo $(3) || echo $(4))

# ---- Kconfig -------------------------------------------------------------
# In an O= build the kconfig run reads a copy of the tree's top Kconfig with
# kconfig/Kconfig.kparity sourced at its end, written to .kparity/Kconfig
# (only when it would change). The tree itself is not touched.

# __kp-kconfig-text
# Usage: $(__kp-kconfig-text)
# The tree's top Kconfig with kconfig/Kconfig.kparity sourced at its end.
__kp-kconfig-text = $(file <$(abs_srctree)/Kconfig)$(__kp-nl)$(__kp-nl)source "$(__kp-top)/kconfig/Kconfig.kparity"

# __kp-hooked
# Usage: $(__kp-hooked)
# Non-empty for a tree with the series' hook (its top Kconfig sources
# $(kparity-kconfig)) and KPARITY_DIR set: the tree then reads the entries
# itself, and a second copy would define each symbol and choice twice.
__kp-hooked = $(if $(KPARITY_DIR),$(findstring kparity-kconfig,$(file <$(abs_srctree)/Kconfig)))

# __kp-same
# Usage: $(call __kp-same,a,b)
# Non-empty when the texts a and b are one and the same, and not empty.
__kp-same = $(and $(findstring $(1),$(2)),$(findstring $(2),$(1)))

# The copy is used when each of these conditions holds (non-empty):
# KBUILD_KCONFIG and KPARITY_KCONFIG leave it to the overlay; there is a
# source tree, without the hook; this make runs in a build directory of
# its own (O=), which has a top Kconfig to copy.
__kp-kc-asked    = $(if $(filter 0 n no,$(KPARITY_KCONFIG)),,$(filter undefined,$(origin KBUILD_KCONFIG)))
__kp-kc-tree     = $(abs_srctree)
__kp-kc-unhooked = $(if $(__kp-hooked),,y)
__kp-kc-separate = $(if $(call __kp-same,$(abs_objtree),$(abs_srctree)),,y)
__kp-kc-objtree  = $(call __kp-same,$(abs_objtree),$(CURDIR))
__kp-kc-kconfig  = $(wildcard $(abs_srctree)/Kconfig)

# __kp-kconfig-on
# Usage: $(__kp-kconfig-on)
# Non-empty when every condition holds; checked in order and no further
# than the first that fails, so a tree's Kconfig is read only when needed.
__kp-kconfig-on = $(and $(__kp-kc-asked),$(__kp-kc-tree),$(__kp-kc-unhooked),$(__kp-kc-separate),$(__kp-kc-objtree),$(__kp-kc-kconfig))

ifneq ($(__kp-kconfig-on),)
__kp-kconfig := $(CURDIR)/.kparity/Kconfig
ifneq ($(file <$(__kp-kconfig)),$(__kp-kconfig-text))
$(shell mkdir -p .kparity)
$(file >$(__kp-kconfig).tmp,$(__kp-kconfig-text))
$(shell mv -f .kparity/Kconfig.tmp .kparity/Kconfig && chown --reference=. .kparity .kparity/Kconfig 2>/dev/null)
endif
KBUILD_KCONFIG := $(__kp-kconfig)
endif

endif # __kparity_overlay
