"""deploy/launch.py: N Streamlit processes behind Debian's nginx, sticky by cookie, websockets upgraded."""

from __future__ import annotations

import subprocess

from deploy import launch


def test_shares_split_new_browsers_evenly():
    assert launch.shares(1) == ["*"]
    assert launch.shares(2) == ["50.00%", "*"]
    assert launch.shares(3) == ["33.33%", "33.33%", "*"]


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
    assert text.count("upstream te") == 3 and "proxy_set_header Upgrade $http_upgrade" in text
