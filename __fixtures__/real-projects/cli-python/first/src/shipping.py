import random


def cost(weight, zone):
    unused = 3
    if zone == "near":
        return weight * 2
    return weight * 5


def tracking_number():
    # A pseudorandom generator where security may matter: a security hotspot.
    return random.randint(0, 10**9)


def label(name, street, town, zone):
    lines = []
    lines.append("To: " + name)
    lines.append(street)
    lines.append(town)
    if zone == "near":
        lines.append("zone: near")
    if zone == "far":
        lines.append("zone: far")
    if not name:
        lines.append("?")
    lines.append("--")
    return "\n".join(lines)
