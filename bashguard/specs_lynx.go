package bashguard

import "sync"

// lynx's command line (lynx -help, 2.9): options with one dash or two,
// each a word of its own, a value after "=" or as the next word, a flag
// taking "=VALUE" too (lynx -dump=1), no abbreviation, options anywhere;
// its operands are URLs or files, a file read (kURLOrFile). Its
// configuration (-cfg) names the programs it runs, -exec and -locexec
// let pages run programs here, -cmd_script drives it by keystrokes, and
// "-" reads more options from the input (netTool.stdinScript).
var lynxRows = rows(
	each(kFlag, "", "-accept_all_cookies[=]", "-anonymous[=]", "-base[=]", "-book[=]", "-buried_news[=]",
		"-case[=]", "-center[=]", "-child[=]", "-child_relaxed[=]", "-collapse_br_tags[=]", "-cookies[=]", "-core[=]",
		"-crawl[=]", "-curses_pads[=]", "-debug_partial[=]", "-default_colors[=]", "-dont_wrap_pre[=]", "-dump[=]",
		"-emacskeys[=]", "-enable_scrollback[=]", "-force_empty_hrefless_a[=]", "-force_html[=]", "-force_secure[=]",
		"-forms_options[=]", "-from[=]", "-ftp[=]", "-get_data[=]", "-head[=]", "-help[=]", "-historical[=]",
		"-html5_charsets[=]", "-image_links[=]", "-ismap[=]", "-justify[=]", "-list_decoded[=]", "-list_inline[=]",
		"-listonly[=]", "-localhost[=]", "-mime_header[=]", "-minimal[=]", "-nested_tables[=]", "-nobold[=]",
		"-nobrowse[=]", "-nocc[=]", "-nocolor[=]", "-noexec[=]", "-nofilereferer[=]", "-nolist[=]", "-nolog[=]",
		"-nomargins[=]", "-nomore[=]", "-nonrestarting_sigwinch[=]", "-nonumbers[=]", "-nopause[=]", "-noprint[=]",
		"-noredir[=]", "-noreferer[=]", "-noreverse[=]", "-nostatus[=]", "-notitle[=]", "-nounderline[=]",
		"-number_fields[=]", "-number_links[=]", "-partial[=]", "-partial_thres[=]", "-passive_ftp[=]", "-popup[=]",
		"-post_data[=]", "-preparsed[=]", "-prettysrc[=]", "-print[=]", "-pseudo_inlines[=]", "-raw[=]", "-realm[=]",
		"-reload[=]", "-resubmit_posts[=]", "-rlogin[=]", "-scrollbar[=]", "-scrollbar_arrow[=]", "-selective[=]",
		"-short_url[=]", "-show_cfg[=]", "-show_cursor[=]", "-show_rate[=]", "-soft_dquotes[=]", "-source[=]",
		"-stack_dump[=]", "-startfile_ok[=]", "-stderr[=]", "-stdin[=]", "-syslog_urls[=]", "-tagsoup[=]",
		"-telnet[=]", "-tlog[=]", "-tna[=]", "-trace[=]", "-trace_mask[=]", "-traversal[=]", "-trim_blank_lines[=]",
		"-trim_input_fields[=]", "-underline_links[=]", "-underscore[=]", "-unique_urls[=]", "-update_term_title[=]",
		"-use_mouse[=]", "-validate[=]", "-verbose[=]", "-version[=]", "-vikeys[=]", "-with_backspaces[=]",
		"-xhtml_parsing[=]"),
	each(kWord, "", "-assume_charset=", "-assume_local_charset=", "-assume_unrec_charset=", "-auth=", "-bibhost=",
		"-cache=", "-connect_timeout=", "-convert_to=", "-delay=", "-display=", "-display_charset=", "-hiddenlinks=",
		"-homepage=", "-index=", "-link=", "-newschunksize=", "-newsmaxchunk=", "-nozap=", "-pauth=", "-read_timeout=",
		"-restrictions=", "-socks5_proxy=", "-syslog=", "-term=", "-useragent=", "-width="),
	each(kConfig, "reads configuration, which names the programs lynx runs", "-cfg="),
	each(kWrite, "", "-cmd_log=", "-cookie_save_file=", "-error_file=", "-session=", "-sessionout="),
	each(kAsk, "reads keystrokes that drive lynx, which can save files and run programs", "-cmd_script="),
	each(kRead, "", "-cookie_file=", "-lss=", "-sessionin="),
	each(kProgram, "runs the editor it names", "-editor="),
	each(kAsk, "lets lynx run programs of this machine that pages name (lynxexec:, lynxprog:)", "-exec[=]",
		"-locexec[=]"),
)

// lynxSpec is lynx's.
var lynxSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "lynx", grammar: grammar{oneDash: true, twoDashes: true, permute: true}, rows: lynxRows,
		operands: kURLOrFile}).compile()
})
