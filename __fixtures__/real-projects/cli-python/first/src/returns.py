def accepted(days):
    return days < 30


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
