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

from ui.common.lesson_file import LessonFileError, Step, dump_lesson, load_lesson
from ui.common.page_state import PENDING_KEY, PRESENT_PARAM, PRESENTATION_KEY, SCREEN_KEY

PLAN_KEY = "lesson_plan"  # session state: the teacher's path, a list of Steps
AT_KEY = "lesson_at"  # session state: the path's step on screen (an index), or None
NOTICE_KEY = "lesson_notice"  # session state: ("error" | "success", message) after an upload
UPLOAD_KEY = "lesson_upload"
PAGES_DIR = Path(__file__).resolve().parents[2] / "pages"


def app_pages() -> list[str]:
    """The pages a lesson may name: every script in pages/ (the router's st.Page list)."""
    return sorted(p.stem for p in PAGES_DIR.glob("*.py"))


def current_step(page: str, title: str) -> Step:
    """This screen as a step: the values its page last wrote into its link (with whole text),
    or just the page when it keeps none. Presentation mode rides along."""
    screen = st.session_state.get(SCREEN_KEY) or {}
    params = dict(screen.get("params", {})) if screen.get("page") == page else {}
    if st.session_state.get(PRESENTATION_KEY):
        params[PRESENT_PARAM] = "1"
    return Step(page, title, params)


def open_pending(page: str) -> None:
    """At the top of every run: if a lesson step waits for another page, go there (its page
    reads the step in `first_visit`). Presentation mode follows the step when it names it."""
    pending = st.session_state.get(PENDING_KEY)
    if not isinstance(pending, Step):
        return
    if PRESENT_PARAM in pending.params:
        st.session_state[PRESENTATION_KEY] = pending.params[PRESENT_PARAM] == "1"
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
    """A lesson file chosen: checked whole; one step reopens its screen, several start a path."""
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None:
        return
    try:
        steps = load_lesson(upload.getvalue(), app_pages())
    except LessonFileError as why:
        st.session_state[NOTICE_KEY] = ("error", f"{upload.name} was not opened: {why}.")
        return
    st.session_state[NOTICE_KEY] = (
        "success", f"Opened {upload.name}: " + (
            "one screen." if len(steps) == 1 else f"a path of {len(steps)} screens."))
    if len(steps) > 1:
        st.session_state[PLAN_KEY] = steps
        st.session_state[AT_KEY] = 0
    st.session_state[PENDING_KEY] = steps[0]


def lesson_sidebar(page: str, title: str) -> None:
    """The lesson tools, in the sidebar of every page. `page` is the page on screen (its
    pages/ file's stem) and `title` its title."""
    plan: list[Step] = st.session_state.get(PLAN_KEY) or []
    at = st.session_state.get(AT_KEY)
    if plan and isinstance(at, int) and 0 <= at < len(plan):
        st.markdown(f"**Lesson path**: step {at + 1} of {len(plan)}, *{plan[at].title}*")
        back, forward = st.columns(2)
        back.button("◀ Previous", key="lesson_prev", on_click=_go, args=(at - 1,),
                    disabled=at == 0, width="stretch")
        forward.button("Next ▶", key="lesson_next", on_click=_go, args=(at + 1,),
                       disabled=at == len(plan) - 1, width="stretch")
    with st.expander("Lesson links and files"):
        st.caption("The link in the address bar reopens this screen. Text too long for a link, "
                   "or a path of several screens, goes into a lesson file.")
        screen = st.session_state.setdefault(SCREEN_KEY, {})
        presenting = bool(st.session_state.get(PRESENTATION_KEY))

        def this_screen() -> str:
            # Called when the button is clicked, outside the script run: it reads the dict the
            # page's last run filled (page_state.write_link), not the session proxy.
            params = dict(screen.get("params", {})) if screen.get("page") == page else {}
            if presenting:
                params[PRESENT_PARAM] = "1"
            return dump_lesson([Step(page, title, params)])

        st.download_button("⬇ This screen as a lesson file", data=this_screen,
                           file_name=f"lesson-{page}.json", mime="application/json",
                           key="lesson_download_screen", width="stretch")
        st.button("➕ Add this screen to the path", key="lesson_add", on_click=_add,
                  args=(page, title), width="stretch")
        if plan:
            st.caption("  \n".join(f"{n}. {s.title}" for n, s in enumerate(plan, start=1)))
            st.download_button("⬇ The path as a lesson file", data=dump_lesson(plan),
                               file_name="lesson-path.json", mime="application/json",
                               key="lesson_download_path", width="stretch")
            st.button("Clear the path", key="lesson_clear", on_click=_clear, width="stretch")
        st.file_uploader("Open a lesson file", type=["json"], key=UPLOAD_KEY,
                         on_change=_open_upload,
                         help="A lesson file saved here: one screen, or a teacher's path.")
        notice = st.session_state.get(NOTICE_KEY)
        if notice:
            kind, message = notice
            (st.error if kind == "error" else st.success)(message)
