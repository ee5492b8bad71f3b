"""tests"""
