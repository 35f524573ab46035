/*
 * complete: the bash and zsh completion scripts, written by `coreplan
 * completion bash|zsh` from the very tables --help prints (main.c's
 * command table and global options, each command's opt_cmd collected with
 * cli_each_table), so a new option completes as soon as it is in its
 * table. CMake writes both at build time and installs them (bash:
 * share/bash-completion/completions/coreplan, zsh:
 * share/zsh/site-functions/_coreplan).
 *
 * What completes: the command after the global options; a command's long
 * options after "-"; an option's value by its spec: the choices of an
 * OPT_T_CHOICE (--format md...), file names for a FILE or PATH argument,
 * folders for DIR, the canonical field names (and corpus, subcorpus, tag)
 * for FIELD and F1[,F2] lists (after the last comma), FIELD= for
 * FIELD=V[,V...] and WHERE conditions; an operand: files for PATH and FILE,
 * command names for help's COMMAND, the opt_cmd's operand_words (plot's
 * kinds, completion's shells). Values that are numbers or free names
 * complete to nothing rather than to file names. The bash script needs
 * nothing but bash itself (no bash-completion helpers).
 */
#ifndef COREPLAN_CLI_COMPLETE_H
#define COREPLAN_CLI_COMPLETE_H

#include <stdio.h>

/* shell "bash" or "zsh": 0, else a usage error; ERR_DATA when a command shows no table. */
int complete_write(FILE *fp, const char *shell);

#endif
