"""deploy/launch.py: N Streamlit processes behind Debian's nginx, sticky by cookie, websockets upgraded; a process
that dies is restarted while nginx sends its browsers to the others."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deploy import launch

needs_nginx = pytest.mark.skipif(not launch.have_nginx(), reason="nginx is not installed (apt-get install nginx)")


@needs_nginx
def test_the_configuration_is_valid_nginx(tmp_path):
    """nginx itself checks the configuration the launcher writes (``nginx -t``)."""
    (tmp_path / "tmp").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(launch.nginx_config([8501, 8502, 8503], "127.0.0.1:8080", tmp_path))
    out = subprocess.run(
        [launch.nginx_binary(), "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    text = conf.read_text()
    assert text.count("upstream te") == 4 and "proxy_set_header Upgrade $http_upgrade" in text


def test_each_process_has_the_others_as_backup():
    """A process's upstream sends to it first and to every other process when it refuses; a browser without a
    cookie goes to the processes in turn; the cookie names the process that answered."""
    text = launch.nginx_config([8501, 8502, 8503], "127.0.0.1:8080", launch.ROOT)
    assert launch.upstream_block(1, [8501, 8502, 8503]) in text
    assert (
        "server 127.0.0.1:8502 max_fails=1 fail_timeout=2s; server 127.0.0.1:8501 backup; server 127.0.0.1:8503 backup;"
        in text
    )
    assert "split_clients" not in text and f"default {launch.ANY};" in text
    assert "proxy_next_upstream error timeout http_502;" in text
    assert f"{launch.COOKIE}=$te_served;" in text and '"~(^|\\s)127\\.0\\.0\\.1:8503$" te2;' in text


def child(tmp_path, code: str) -> launch.Child:
    c = launch.Child("test", [sys.executable, "-c", code], tmp_path / "child.log")
    c.spawn()
    return c


def test_a_dead_child_is_restarted_after_a_growing_back_off(tmp_path, capsys):
    """``Cluster.check``: a child that exits is started again once its back-off has passed (1, 2, 4 ... s, at most
    ``BACKOFF_MAX_S``); a live child beside it is left alone, and a child that ran ``BACKOFF_RESET_S`` gets the
    first back-off again."""
    dying = child(tmp_path, "raise SystemExit(3)")
    living = child(tmp_path, "import time; time.sleep(600)")
    cluster = launch.Cluster("http://127.0.0.1:1", [], tmp_path, [dying, living])
    try:
        dying.proc.wait(timeout=30)
        first = living.proc
        t0 = dying.started
        cluster.check(t0)  # seen dead: due in 1 s
        assert dying.due == t0 + launch.BACKOFF_FIRST_S and dying.restarts == 0
        cluster.check(t0 + 0.5 * launch.BACKOFF_FIRST_S)
        assert dying.restarts == 0  # not yet
        cluster.check(t0 + launch.BACKOFF_FIRST_S)
        assert dying.restarts == 1 and dying.due is None
        dying.proc.wait(timeout=30)
        t1 = dying.started
        cluster.check(t1)
        assert dying.due == t1 + 2 * launch.BACKOFF_FIRST_S  # died again soon: twice as long
        assert living.proc is first and living.proc.poll() is None and living.restarts == 0
        dying.backoff = launch.BACKOFF_MAX_S * 4
        cluster.check(t1 + 2 * launch.BACKOFF_FIRST_S)
        dying.proc.wait(timeout=30)
        cluster.check(dying.started)
        assert dying.backoff == launch.BACKOFF_MAX_S  # capped
        cluster.check(living.started + launch.BACKOFF_RESET_S)
        assert living.backoff == launch.BACKOFF_FIRST_S
        assert "deploy.launch: test exited with 3; restarting in 1 s" in capsys.readouterr().out
    finally:
        cluster.stop(keep_logs=True)
    assert all(p.poll() is not None for p in cluster.procs)
    cluster.check()  # stopped: nothing is started again
    assert all(p.poll() is not None for p in cluster.procs)


def until(predicate, timeout: float = 120.0) -> bool:
    """Whether ``predicate()`` became true within ``timeout`` seconds (asked every 0.2 s)."""
    import threading
    import time

    deadline, tick = time.monotonic() + timeout, threading.Event()
    while not predicate():
        if time.monotonic() > deadline:
            return False
        tick.wait(0.2)
    return True


@pytest.mark.e2e
@needs_nginx
def test_a_killed_process_leaves_the_others_serving_and_its_browsers_go_to_a_live_one(monkeypatch):
    """Two processes behind real nginx; one killed (SIGKILL). A browser still holding the dead process's cookie
    gets the page from the live one, with its cookie rewritten to it, and a new websocket session with the dead
    cookie draws a page there; the launcher starts the dead process again on its port, and its cookie reaches it
    once more. The live process and nginx are never restarted."""
    import asyncio

    from bench import classroom

    monkeypatch.setenv("TE_WARM_UP", "0")  # models loaded on first visit: the process starts in seconds
    with launch.start(2, launch.free_port()) as cluster:
        dead, live = launch.upstream_name(0), launch.upstream_name(1)
        victim = cluster.children[0].proc
        victim.kill()
        victim.wait(timeout=30)

        jar = classroom.get(cluster.url + "/", {launch.COOKIE: dead})
        assert jar[launch.COOKIE] == live

        async def session() -> classroom.Drawn:
            student = classroom.Student(0, "attention", jar={**jar, launch.COOKIE: dead})
            ws = await classroom.connect(cluster.url, student.jar)
            try:
                assert student.process == live  # the upgrade's answer names the process that took it
                return await classroom.rerun(ws, student, timeout=120)
            finally:
                await ws.close()

        drawn = asyncio.run(session())
        assert drawn.finished and not drawn.exception and drawn.slider is not None

        assert until(
            lambda: cluster.children[0].restarts == 1 and launch.healthy(f"http://127.0.0.1:{cluster.ports[0]}")
        )
        assert cluster.children[0].proc is not victim
        assert until(
            lambda: classroom.get(cluster.url + "/_stcore/health", {launch.COOKIE: dead})[launch.COOKIE] == dead
        )
        assert [c.restarts for c in cluster.children[1:]] == [0, 0]  # the live process and nginx served on
