"""deploy/k8s/: every manifest validates against the Kubernetes schemas (strict: no unknown fields), and the pieces
fit together (labels, names, ports, the health path, the sticky cookie)."""

from __future__ import annotations

from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from deploy import launch

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
VERSION = "1.33.0"  # a Kubernetes release the schemas cover


def manifests() -> dict[str, dict]:
    return {p.name: yaml.safe_load(p.read_text()) for p in sorted(K8S.glob("*.yaml"))}


@pytest.mark.parametrize("name", sorted(p.name for p in K8S.glob("*.yaml")))
def test_each_manifest_is_valid(name):
    kubernetes_validate.validate(manifests()[name], VERSION, strict=True)  # raises ValidationError


def test_a_broken_manifest_is_caught():
    broken = manifests()["service.yaml"]
    broken["spec"]["ports"][0]["port"] = "eighty"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSION, strict=True)


def test_the_pieces_fit_together():
    m = manifests()
    service, ingress, hpa = m["service.yaml"], m["ingress.yaml"], m["hpa.yaml"]
    dockerfile = (K8S.parents[1] / "Dockerfile").read_text()
    for name in ("deployment.yaml", "deployment-gpu.yaml"):
        deployment = m[name]
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
        assert service["spec"]["selector"].items() <= labels.items()
        assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        assert f"EXPOSE {container['ports'][0]['containerPort']}" in dockerfile
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["httpGet"]["path"] == "/_stcore/health"
        # health answers only once every model is loaded (deploy/serve.py), so readiness means warm
        assert {"name": "TE_WARM_FIRST", "value": "1"} in container["env"]
        assert '"deploy.serve"' in dockerfile
    assert (
        m["deployment-gpu.yaml"]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"]
        == 1
    )
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    notes = ingress["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert notes["nginx.ingress.kubernetes.io/session-cookie-name"] == launch.COOKIE
    assert notes["nginx.ingress.kubernetes.io/proxy-body-size"] == f"{launch.UPLOAD_MB}m"
