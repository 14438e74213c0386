# New code of the second revision, with an issue.
def weight(parcels):
    total = 0
    unused = len(parcels)
    for parcel in parcels:
        total = total + parcel
    return total
