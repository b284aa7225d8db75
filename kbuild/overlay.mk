# SPDX-License-Identifier: GPL-2.0-only
#
# kparity Kbuild overlay: Clang-aware, cached and audited replacements for
# the kernel's probe macros (try-run, cc-option and friends).
#
# Enable it on an unpatched tree by naming this file in MAKEFILES:
#
#   make -C $KSRC O=out LLVM=1 MAKEFILES=$KPARITY/kbuild/overlay.mk
#
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

__kp-top   := $(patsubst %/kbuild/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
__kp-probe := $(__kp-top)/kbuild/probe.sh
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

# The source tree and where .kparity/ lives: the build directory (O=), the
# external module's directory for M= builds, never the source tree.
__kp-srctree = $(or $(abs_srctree),$(srctree))
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
# Expands to nothing; stops make on a tree of unknown layout. Checked once
# per make, at the first probe.
__kp-check = $(if $(__kp-checked),,$(eval __kp-checked := $(__kp-layout))$(if $(__kp-checked),,\
	$(error kparity: unknown Kbuild layout in '$(__kp-srctree)': neither scripts/Makefile.compiler nor cc-option in scripts/Kbuild.include)))

# ---- the probe ---------------------------------------------------------

# __kp-opts
# Usage: $(__kp-opts)
# probe.sh options for the current settings.
__kp-opts = $(if $(filter 1,$(call __kp-setting,CACHE,1)),-d $(call __kp-sq,$(__kp-out)/probes)) \
	$(if $(filter 1,$(call __kp-setting,AUDIT,0)),-a $(call __kp-sq,$(__kp-out)/audit.log)) \
	$(if $(filter 1,$(call __kp-setting,STRICT,1)),,-n) \
	$(if $(findstring 1,$(KBUILD_VERBOSE)),-v) \
	$(if $(__kp-srctree),-s $(call __kp-sq,$(__kp-srctree)))

# __kp-run
# Usage: $(call __kp-run,macro,tool,base-flags,option[,probe-options])
# y or n: does tool accept option on top of base-flags? Flags reach the
# shell unquoted, exactly as in the kernel's own try-run commands. The
# script is sourced by the shell $(shell) starts, which saves a process.
__kp-run = $(__kp-check)$(shell set -- $(__kp-opts) $(5) \
	$(1) $(call __kp-sq,$(2)) $(3) -- $(4); . $(call __kp-sq,$(__kp-probe)))

# __kp-if
# Usage: $(call __kp-if,y-or-n,if-yes,if-no)
__kp-if = $(if $(filter y,$(1)),$(2),$(3))

# ---- the kernel's macros -----------------------------------------------

# try-run
# Usage: option = $(call try-run, $(CC)...-o "$$TMP",option-ok,otherwise)
# The command's exit status decides, as in Kbuild; the answer is cached
# under the command's text and the identity of $(CC) and $(LD).
override try-run = $(call __kp-if,$(call __kp-run,try-run,$(CC),,$(call __kp-sq,$(1)),\
	-l $(call __kp-sq,$(LD))),$(2),$(3))

# as-option
# Usage: aflags-y += $(call as-option,-Wa$(comma)-isa=foo,)
override as-option = $(call __kp-if,$(call __kp-run,as-option,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS),$(1)),$(1),$(2))

# as-instr
# Usage: aflags-y += $(call as-instr,instr,option1,option2)
# The instruction is one double-quoted word, as in Kbuild's printf "%b".
override as-instr = $(call __kp-if,$(call __kp-run,as-instr,$(CC),\
	$(CLANG_FLAGS) $(KBUILD_AFLAGS),"$(1)"),$(2),$(3))

# __cc-option
# Usage: MY_CFLAGS += $(call __cc-option,$(CC),$(MY_CFLAGS),-march=winchip-c6,-march=i586)
override __cc-option = $(call __kp-if,$(call __kp-run,__cc-option,$(1),$(2),$(3)),$(3),$(4))

# cc-option
# Usage: cflags-y += $(call cc-option,-march=winchip-c6,-march=i586)
override cc-option = $(call __kp-if,$(call __kp-run,cc-option,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS),$(1)),$(1),$(2))

# cc-option-yn
# Usage: flag := $(call cc-option-yn,-march=winchip-c6)
override cc-option-yn = $(call __kp-if,$(call __kp-run,cc-option-yn,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS),$(1)),y,n)

# cc-disable-warning
# Usage: cflags-y += $(call cc-disable-warning,unused-but-set-variable)
# Asks about -Wname, since GCC accepts any -Wno-name silently.
override cc-disable-warning = $(call __kp-if,$(call __kp-run,cc-disable-warning,$(CC),\
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS),-W$(strip $(1))),-Wno-$(strip $(1)))

# ld-option
# Usage: KBUILD_LDFLAGS += $(call ld-option, -X, -Y)
override ld-option = $(call __kp-if,$(call __kp-run,ld-option,$(LD),\
	$(KBUILD_LDFLAGS),$(1)),$(1),$(2))

# ---- version helpers (no probes) ----------------------------------------

# gcc-min-version
# Usage: cflags-$(call gcc-min-version, 70100) += -foo
override gcc-min-version = $(shell [ $(or $(CONFIG_GCC_VERSION),0)0 -ge $(strip $(1))0 ] && echo y)

# clang-min-version
# Usage: cflags-$(call clang-min-version, 110000) += -foo
override clang-min-version = $(shell [ $(or $(CONFIG_CLANG_VERSION),0)0 -ge $(strip $(1))0 ] && echo y)

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
__kp-kconfig-text = $(file <$(abs_srctree)/Kconfig)$(__kp-newline)$(__kp-newline)source "$(__kp-top)/kconfig/Kconfig.kparity"

define __kp-newline


endef

ifeq ($(origin KBUILD_KCONFIG)$(filter 0 n no,$(KPARITY_KCONFIG)),undefined)
ifneq ($(abs_srctree),)
ifneq ($(abs_objtree),$(abs_srctree))
ifeq ($(abs_objtree),$(CURDIR))
ifneq ($(wildcard $(abs_srctree)/Kconfig),)
__kp-kconfig := $(CURDIR)/.kparity/Kconfig
ifneq ($(file <$(__kp-kconfig)),$(__kp-kconfig-text))
$(shell mkdir -p .kparity)
$(file >$(__kp-kconfig).tmp,$(__kp-kconfig-text))
$(shell mv -f .kparity/Kconfig.tmp .kparity/Kconfig && chown --reference=. .kparity .kparity/Kconfig 2>/dev/null)
endif
KBUILD_KCONFIG := $(__kp-kconfig)
endif
endif
endif
endif
endif

endif # __kparity_overlay
