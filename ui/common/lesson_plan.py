"""The sidebar's lesson tools: save this screen as a lesson file, open one, walk a teacher's path.

A teacher prepares a lesson by visiting screens and adding each to a path; the path downloads
as one lesson file (ui/common/lesson_file.py). In class, opening that file starts the path:
next/previous in the sidebar reopen each screen exactly as it was added, whatever the students
did to it since. A single screen is a path of one step, so "this screen as a file" and "the
whole path" are the same format.

How a step reopens: it becomes the session's pending step (page_state.PENDING_KEY) and the app
switches to its page; that page's `first_visit` reads the step's values as it would a link's,
through the same tolerant reader, so a hand-edited file can do no more than a hand-edited link.

Everything lives in the session's state: one student's path is not seen by another.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.common.i18n import LANG_KEY, LANG_PARAM, LANGUAGES, _, current_language, explain, ngettext
from ui.common.lazy_expander import lazy_expander
from ui.common.lesson_file import LessonFileError, Step, dump_lesson, load_lesson
from ui.common.page_state import PENDING_KEY, PRESENT_PARAM, PRESENTATION_KEY, SCREEN_KEY
from ui.common.safe_text import literal

PLAN_KEY = "lesson_plan"  # session state: the teacher's path, a list of Steps
AT_KEY = "lesson_at"  # session state: the path's step on screen (an index), or None
NOTICE_KEY = "lesson_notice"  # session state: ("error" | "success", message) after an upload
OPENED_KEY = "lesson_opened"  # session state: the file_id of the upload last opened
UPLOAD_KEY = "lesson_upload"
PAGES_DIR = Path(__file__).resolve().parents[2] / "pages"


def app_pages() -> list[str]:
    """The pages a lesson may name: every script in pages/ (the router's st.Page list)."""
    return sorted(p.stem for p in PAGES_DIR.glob("*.py"))


def _with_session(params: dict[str, str], presenting: bool, language: str) -> dict[str, str]:
    """A step's params with what the session adds: presentation mode, and the interface's
    language (always, so a file saved in Chinese opens in Chinese and one saved in English in
    English; a file without `lang`, from before, keeps the session's language)."""
    if presenting:
        params[PRESENT_PARAM] = "1"
    params[LANG_PARAM] = language
    return params


def current_step(page: str, title: str) -> Step:
    """This screen as a step: the values its page last wrote into its link (with whole text),
    or just the page when it keeps none. Presentation mode and the language ride along."""
    screen = st.session_state.get(SCREEN_KEY) or {}
    params = dict(screen.get("params", {})) if screen.get("page") == page else {}
    return Step(page, title, _with_session(params, bool(st.session_state.get(PRESENTATION_KEY)),
                                           current_language()))


def _take_language(step: Step) -> None:
    """The interface speaks the step's language, when it names one (a file from before the
    language was kept names none: the session's stays). Called before the sidebar's switch is
    drawn in the run, since the switch takes this key over."""
    if step.params.get(LANG_PARAM) in LANGUAGES:
        st.session_state[LANG_KEY] = step.params[LANG_PARAM]


def open_pending(page: str) -> None:
    """At the top of every run: if a lesson step waits for another page, go there (its page
    reads the step in `first_visit`). Presentation mode follows the step when it names it."""
    pending = st.session_state.get(PENDING_KEY)
    if not isinstance(pending, Step):
        return
    if PRESENT_PARAM in pending.params:
        st.session_state[PRESENTATION_KEY] = pending.params[PRESENT_PARAM] == "1"
    _take_language(pending)
    if pending.page != page:
        st.switch_page(f"pages/{pending.page}.py")


def _go(index: int) -> None:
    plan: list[Step] = st.session_state.get(PLAN_KEY) or []
    if 0 <= index < len(plan):
        st.session_state[AT_KEY] = index
        st.session_state[PENDING_KEY] = plan[index]


def _add(page: str, title: str) -> None:
    plan = list(st.session_state.get(PLAN_KEY) or [])
    plan.append(current_step(page, title))
    st.session_state[PLAN_KEY] = plan
    st.session_state[AT_KEY] = len(plan) - 1


def _clear() -> None:
    st.session_state[PLAN_KEY] = []
    st.session_state[AT_KEY] = None


def _open_upload() -> None:
    """A lesson file chosen: checked whole; one step reopens its screen, several start a path.

    subtle: a file is opened once. The uploader's id includes the page, so each page draws a
    new uploader, and the browser hands it the file still in the box at the next change of any
    control: without this check that change would open the file again (a path back at step 1,
    a seed typed over). Each upload has its own file_id, so choosing the same file again opens
    it again."""
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None or upload.file_id == st.session_state.get(OPENED_KEY):
        return
    st.session_state[OPENED_KEY] = upload.file_id
    try:
        steps = load_lesson(upload.getvalue(), app_pages())
    except LessonFileError as why:
        st.session_state[NOTICE_KEY] = ("error", _("{file} was not opened: {why}.",
                                                   file=literal(upload.name),
                                                   why=literal(explain(why))))
        return
    # The file's language first (before the sidebar's switch is drawn), so the message and
    # everything after it speak the language the lesson was saved in.
    _take_language(steps[0])
    name = literal(upload.name)
    st.session_state[NOTICE_KEY] = ("success", _("Opened {file}: one screen.", file=name)
                                    if len(steps) == 1 else
                                    ngettext("Opened {file}: a path of {n} screen.",
                                             "Opened {file}: a path of {n} screens.", len(steps),
                                             file=name))
    if len(steps) > 1:
        st.session_state[PLAN_KEY] = steps
        st.session_state[AT_KEY] = 0
    st.session_state[PENDING_KEY] = steps[0]


def _shown_title(step: Step) -> str:
    """A step's title for the sidebar's Markdown: on one line, and inert (a file's titles are
    anyone's text: `![x](http://…)` would be an image the browser fetches)."""
    return literal(" ".join(step.title.split()) or step.page)


def lesson_sidebar(page: str, title: str) -> None:
    """The lesson tools, in the sidebar of every page. `page` is the page on screen (its
    pages/ file's stem) and `title` its title."""
    plan: list[Step] = st.session_state.get(PLAN_KEY) or []
    at = st.session_state.get(AT_KEY)
    if plan and isinstance(at, int) and 0 <= at < len(plan):
        st.markdown(_("**Lesson path**: step {at} of {steps}, *{title}*", at=at + 1,
                      steps=len(plan), title=_shown_title(plan[at])))
        back, forward = st.columns(2)
        back.button(_("◀ Previous"), key="lesson_prev", on_click=_go, args=(at - 1,),
                    disabled=at == 0, width="stretch")
        forward.button(_("Next ▶"), key="lesson_next", on_click=_go, args=(at + 1,),
                       disabled=at == len(plan) - 1, width="stretch")
    box = lazy_expander(_("Lesson links and files"), key=f"{UPLOAD_KEY}_box")
    if not box.open:
        return  # on every page's first view: its buttons and uploader only once asked for
    with box:
        st.caption(_("The link in the address bar reopens this screen. Text too long for a link, "
                     "or a path of several screens, goes into a lesson file."))
        screen = st.session_state.setdefault(SCREEN_KEY, {})
        presenting = bool(st.session_state.get(PRESENTATION_KEY))
        language = current_language()

        def this_screen() -> str:
            # Called when the button is clicked, outside the script run: it reads the dict the
            # page's last run filled (page_state.write_link), not the session proxy.
            params = dict(screen.get("params", {})) if screen.get("page") == page else {}
            return dump_lesson([Step(page, title, _with_session(params, presenting, language))])

        st.download_button(_("⬇ This screen as a lesson file"), data=this_screen,
                           file_name=f"lesson-{page}.json", mime="application/json",
                           key="lesson_download_screen", width="stretch", on_click="ignore")
        st.button(_("➕ Add this screen to the path"), key="lesson_add", on_click=_add,
                  args=(page, title), width="stretch")
        if plan:
            st.caption("  \n".join(f"{n}. {_shown_title(s)}" for n, s in enumerate(plan, start=1)))
            st.download_button(_("⬇ The path as a lesson file"), data=dump_lesson(plan),
                               file_name="lesson-path.json", mime="application/json",
                               key="lesson_download_path", width="stretch", on_click="ignore")
            st.button(_("Clear the path"), key="lesson_clear", on_click=_clear, width="stretch")
        st.file_uploader(_("Open a lesson file"), type=["json"], key=UPLOAD_KEY,
                         on_change=_open_upload,
                         help=_("A lesson file saved here: one screen, or a teacher's path."))
        notice = st.session_state.get(NOTICE_KEY)
        if notice:  # Markdown whose file name and file's words were made literal when written
            kind, message = notice
            (st.error if kind == "error" else st.success)(message)
